import { Alert, Text, Title } from '@mantine/core';

/**
 * The title and one-line explanation at the top of each screen of the auth layout, and below
 * them, when the last attempt failed, why.
 */
export function AuthHeading({ title, subtitle, error }: { title: string; subtitle: string; error?: string | null }) {
  return (
    <>
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          {subtitle}
        </Text>
      </div>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
    </>
  );
}
