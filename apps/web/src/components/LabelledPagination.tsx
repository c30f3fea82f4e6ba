import { Group, Pagination, type PaginationProps } from '@mantine/core';
import { useTranslation } from '../i18n/index.ts';

/** Page buttons that screen readers can name ('Next page', 'Page 3'), shown only when there is more than one page. */
export function LabelledPagination({
  pages,
  page,
  onChange,
  ...layout
}: {
  pages: number;
  page: number;
  onChange: (page: number) => void;
} & Pick<PaginationProps, 'siblings' | 'boundaries' | 'aria-label'>) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <Group justify="center">
      <Pagination
        {...layout}
        total={pages}
        value={page}
        onChange={onChange}
        size="sm"
        getControlProps={(control) => ({ 'aria-label': t(`common.pagination.${control}`) })}
        getItemProps={(item) => ({ 'aria-label': t('common.pagination.page', { page: item }) })}
      />
    </Group>
  );
}
