import { Text, Title } from '@mantine/core';

/** The title and one-line explanation at the top of each screen of the auth layout. */
export function AuthHeading({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <div>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed" size="sm" mt={4}>
        {subtitle}
      </Text>
    </div>
  );
}
