import type { CloseScheduleInput } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../components/save-blob.ts';
import { apiCall, apiResponse } from './client.ts';

export type CloseFilter = { day: string; account: string; bpt: string };

function closeFilterQuery(filter: CloseFilter): { day: string; account: string; bpt?: string } {
  return { day: filter.day, account: filter.account, ...(filter.bpt !== 'all' && { bpt: filter.bpt }) };
}

function closeQuery(filter: CloseFilter): string {
  return new URLSearchParams(closeFilterQuery(filter)).toString();
}

export function useDayClose(filter: CloseFilter | null) {
  return useQuery({
    queryKey: ['close', filter],
    queryFn: () => apiCall('GET /api/close', { query: closeFilterQuery(filter as CloseFilter) }),
    enabled: filter !== null,
  });
}

/** Downloads the close as the server writes it (CSV, or a PDF in the language on screen), named as the server names it. */
export async function downloadClose(filter: CloseFilter, format: 'csv' | 'pdf', language: string): Promise<string> {
  const query = format === 'pdf' ? `${closeQuery(filter)}&language=${language}` : closeQuery(filter);
  const response = await apiResponse(`/close/${format}?${query}`);
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
