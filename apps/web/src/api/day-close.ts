import type { CloseScheduleInput, Language } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../components/save-blob.ts';
import { apiCall, apiFile } from './client.ts';

export type CloseFilter = { day: string; account: string; bpt: string };

function closeFilterQuery(filter: CloseFilter): { day: string; account: string; bpt?: string } {
  return { day: filter.day, account: filter.account, ...(filter.bpt !== 'all' && { bpt: filter.bpt }) };
}

export function useDayClose(filter: CloseFilter | null) {
  return useQuery({
    queryKey: ['close', filter],
    queryFn: () => apiCall('GET /api/close', { query: closeFilterQuery(filter as CloseFilter) }),
    enabled: filter !== null,
  });
}

/** Downloads the close as the server writes it (CSV, or a PDF in the language on screen), named as the server names it. */
export async function downloadClose(filter: CloseFilter, format: 'csv' | 'pdf', language: Language): Promise<string> {
  const query = closeFilterQuery(filter);
  const response =
    format === 'pdf'
      ? await apiFile('GET /api/close/pdf', { query: { ...query, language } })
      : await apiFile('GET /api/close/csv', { query });
  const file = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `close.${format}`;
  saveBlob(await response.blob(), file);
  return file;
}

const schedulesKey = ['close', 'schedules'] as const;

export function useCloseSchedules(enabled: boolean) {
  return useQuery({
    queryKey: schedulesKey,
    queryFn: () => apiCall('GET /api/close/schedules'),
    enabled,
  });
}

export function useAddCloseSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CloseScheduleInput) => apiCall('POST /api/close/schedules', { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: schedulesKey }),
  });
}

export function useRemoveCloseSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall('DELETE /api/close/schedules/:id', { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: schedulesKey }),
  });
}
