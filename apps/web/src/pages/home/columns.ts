import { type TransactionSort, transactionSorts } from '@rayo/shared';
import type { TableSort } from '../../api/dashboard.ts';

/** The transaction columns of SPEC §3, in the table's order. */
export const transactionColumns = [
  'createdAt',
  'settledAt',
  'account',
  'source',
  'description',
  'transactionId',
  'bptId',
  'currencyPair',
  'totalMsatCharged',
  'billAmount',
  'msatIncome',
  'fiatIncome',
  'rate',
  'txFeeMsat',
  'conversionFeeMsat',
  'tip',
  'tax',
  'disbursed',
  'currency',
  'fiatPercentage',
] as const;
export type TransactionColumn = (typeof transactionColumns)[number];

/**
 * What a merchant checks first: when it was paid (the date the periods and the default order go
 * by), where, how much and whether it was paid out.
 */
export const defaultColumns: readonly TransactionColumn[] = [
  'settledAt',
  'account',
  'source',
  'transactionId',
  'billAmount',
  'tip',
  'tax',
  'totalMsatCharged',
  'disbursed',
];

export const COLUMNS_STORAGE_KEY = 'dashboard.columns';

function isColumn(value: unknown): value is TransactionColumn {
  return typeof value === 'string' && (transactionColumns as readonly string[]).includes(value);
}

/** The columns chosen before, in table order; the defaults when nothing usable is stored. */
export function loadColumns(storage: Pick<Storage, 'getItem'> = localStorage): TransactionColumn[] {
  try {
    const stored: unknown = JSON.parse(storage.getItem(COLUMNS_STORAGE_KEY) ?? 'null');
    if (Array.isArray(stored)) {
      const chosen = new Set(stored.filter(isColumn));
      // A column that no longer exists is dropped; an empty choice would hide the whole table.
      if (chosen.size > 0) return transactionColumns.filter((column) => chosen.has(column));
    }
  } catch {
    // Unreadable storage (hand-edited, another app's value) falls back to the defaults.
  }
  return [...defaultColumns];
}

export function saveColumns(columns: readonly TransactionColumn[], storage: Pick<Storage, 'setItem'> = localStorage) {
  storage.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(columns));
}

/** Shows or hides one column, keeping the table order and at least one column. */
export function toggleColumn(columns: readonly TransactionColumn[], column: TransactionColumn): TransactionColumn[] {
  const chosen = new Set(columns);
  if (chosen.has(column)) {
    if (chosen.size === 1) return [...columns];
    chosen.delete(column);
  } else {
    chosen.add(column);
  }
  return transactionColumns.filter((candidate) => chosen.has(candidate));
}

/** The sort after a click on a sortable header: its own column newest first, or the other way round. */
export function nextSort(current: TableSort, column: TransactionSort): TableSort {
  if (current.column !== column) return { column, order: 'desc' };
  return { column, order: current.order === 'desc' ? 'asc' : 'desc' };
}

export function isSortable(column: TransactionColumn): column is TransactionSort {
  return (transactionSorts as readonly string[]).includes(column);
}

/** A long identifier in a narrow cell: its start and end, which is what people compare. */
export function shortenId(id: string): string {
  return id.length <= 14 ? id : `${id.slice(0, 6)}…${id.slice(-6)}`;
}

/**
 * A sale's id as people read it: a payment hash shortened, and an on-chain payment
 * (`onchain:<txid>:<output>`) as its transaction, shortened, and the output's number
 * ("3f9a1c…77a2e7 #0"), instead of a cut that kept only the word "onchai".
 */
export function saleIdLabel(transactionId: string): string {
  const onchain = /^onchain:([0-9a-f]+):(\d+)$/.exec(transactionId);
  return onchain ? `${shortenId(onchain[1] ?? '')} #${onchain[2]}` : shortenId(transactionId);
}
