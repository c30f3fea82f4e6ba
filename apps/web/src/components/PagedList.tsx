import { Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { LabelledPagination } from './LabelledPagination.tsx';
import { LoadError } from './LoadError.tsx';

/**
 * A list read a page at a time: loading, failed with a retry, or `empty` when it has nothing at
 * all; else `children` shows the page. The page buttons follow.
 */
export function PagedList<Page extends { total: number }>({
  query,
  pageSize,
  page,
  onPage,
  empty,
  children,
}: {
  query: UseQueryResult<Page>;
  pageSize: number;
  page: number;
  onPage: (page: number) => void;
  empty: string;
  children: (page: Page) => ReactNode;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / pageSize));
  return (
    <>
      {query.isError && <LoadError error={query.error} onRetry={() => query.refetch()} />}
      {query.isPending && <Text size="sm">{t('common.loading')}</Text>}
      {query.data &&
        (query.data.total === 0 ? (
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        ) : (
          children(query.data)
        ))}
      <LabelledPagination pages={pages} page={page} onChange={onPage} />
    </>
  );
}
