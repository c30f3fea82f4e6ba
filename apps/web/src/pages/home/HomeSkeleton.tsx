import { Paper, SimpleGrid, Skeleton, Stack } from '@mantine/core';

/**
 * The home page's shape while its code loads: its title, filters and the four metric cards, so a
 * slow connection shows where the figures will be rather than a spinner.
 */
export function HomeSkeleton() {
  return (
    <Stack gap="lg" aria-hidden>
      <Skeleton h={34} w={200} />
      <Skeleton h={60} maw={560} />
      <SimpleGrid cols={{ base: 1, xs: 2, xl: 4 }} spacing="md">
        {[0, 1, 2, 3].map((card) => (
          <Paper key={card} withBorder p="md" radius="md">
            <Stack gap={8}>
              <Skeleton h={14} w="60%" />
              <Skeleton h={30} w="80%" />
              <Skeleton h={12} w="50%" />
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <Skeleton h={320} radius="md" />
    </Stack>
  );
}
