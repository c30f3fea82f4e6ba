import { EmptyState, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { LoadError } from './LoadError.tsx';

/** A list page's states before its table: loading, failed with a retry, or empty with what to do first. */
export function ListStatus({
  query,
  empty,
  action,
}: {
  query: UseQueryResult<readonly unknown[]>;
  empty: { icon: ReactNode; title: string; text: string };
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Loader aria-label={t('common.loading')} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => query.refetch()} />;
  if (query.data.length > 0) return null;
  return (
    <EmptyState icon={empty.icon} variant="light" title={empty.title} description={empty.text} py="xl">
      {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
    </EmptyState>
  );
}
