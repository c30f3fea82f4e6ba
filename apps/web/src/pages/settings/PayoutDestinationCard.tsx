import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/index.ts';

export type VerificationState = 'verified' | 'pending' | 'notSet';

/** Whether back office has verified a payout destination; any change sends it back to pending. */
export function verificationOf(value: unknown, verified: boolean): VerificationState {
  if (value === null || value === undefined) return 'notSet';
  return verified ? 'verified' : 'pending';
}

const badgeColors: Record<VerificationState, string> = { verified: 'teal', pending: 'yellow', notSet: 'gray' };

/** The frame the three payout destinations of Settings share: title, what it is for, its verification. */
export function PayoutDestinationCard({
  id,
  title,
  description,
  state,
  children,
}: {
  id: string;
  title: string;
  description: string;
  state: VerificationState | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} component="section" aria-labelledby={id}>
      <Stack gap="md">
        <div>
          <Group justify="space-between" align="flex-start" gap="xs">
            <Title order={2} size="h4" id={id}>
              {title}
            </Title>
            {state && (
              <Badge color={badgeColors[state]} variant="light" data-testid={`${id}-status`}>
                {t(`payoutDestinations.status.${state}`)}
              </Badge>
            )}
          </Group>
          <Text c="dimmed" size="sm" mt={4}>
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
