import { type CloseFrequency, isoInstantInZone, type PaymentMethod, startOfDay } from '@rayo/shared';

/** Sums of a set of sales: fiat in minor units of the organization's currency, bitcoin in msat. */
export type CloseSums = {
  count: bigint;
  grossMinor: bigint;
  tipsMinor: bigint;
  taxMinor: bigint;
  refundsMinor: bigint;
  grossMsat: bigint;
  feesMsat: bigint;
  refundsMsat: bigint;
};

/** The sales of one account, terminal, payment method and local hour, as the ledger sums them. */
export type CloseGroup = CloseSums & {
  accountId: string;
  accountName: string;
  bptId: string | null;
  bptName: string;
  method: PaymentMethod;
  hour: number;
  /** 1 for the second run of a wall-clock hour, the day the clocks go back; else 0. */
  fold: 0 | 1;
};

export type CloseTotals = CloseSums & { netMsat: bigint };

export type CloseSummary = {
  totals: CloseTotals;
  byAccount: Array<{
    accountId: string;
    name: string;
    totals: CloseTotals;
    byBpt: Array<{ bptId: string | null; name: string; totals: CloseTotals }>;
  }>;
  byMethod: Record<PaymentMethod, CloseTotals>;
  byHour: Array<{ hour: number; fold: 0 | 1; totals: CloseTotals }>;
};

const SUM_KEYS = [
  'count',
  'grossMinor',
  'tipsMinor',
  'taxMinor',
  'refundsMinor',
  'grossMsat',
  'feesMsat',
  'refundsMsat',
] as const satisfies ReadonlyArray<keyof CloseSums>;

function zero(): CloseSums {
  return {
    count: 0n,
    grossMinor: 0n,
    tipsMinor: 0n,
    taxMinor: 0n,
    refundsMinor: 0n,
    grossMsat: 0n,
    feesMsat: 0n,
    refundsMsat: 0n,
  };
}

function add(into: CloseSums, group: CloseSums): void {
  for (const key of SUM_KEYS) into[key] += group[key];
}

function withNet(sums: CloseSums): CloseTotals {
  return { ...sums, netMsat: sums.grossMsat - sums.feesMsat - sums.refundsMsat };
}

function sumInto<K>(map: Map<K, CloseSums>, key: K, group: CloseSums): void {
  let sums = map.get(key);
  if (!sums) {
    sums = zero();
    map.set(key, sums);
  }
  add(sums, group);
}

/**
 * The close of a set of sales from its groups: the whole, each account and each of its terminals,
 * each payment method, each local hour. Every breakdown adds the same groups, so each sums to the
 * whole. Accounts and terminals come by name; hours in order.
 */
export function summarizeClose(groups: readonly CloseGroup[]): CloseSummary {
  const total = zero();
  const accounts = new Map<string, { name: string; sums: CloseSums; bpts: Map<string | null, CloseSums> }>();
  const bptNames = new Map<string | null, string>();
  const methods = new Map<PaymentMethod, CloseSums>([
    ['lightning', zero()],
    ['onchain', zero()],
  ]);
  // Keyed hour * 2 + fold: the two runs of a repeated hour stay apart, in the order they came.
  const hours = new Map<number, CloseSums>();
  for (const group of groups) {
    add(total, group);
    let account = accounts.get(group.accountId);
    if (!account) {
      account = { name: group.accountName, sums: zero(), bpts: new Map() };
      accounts.set(group.accountId, account);
    }
    add(account.sums, group);
    sumInto(account.bpts, group.bptId, group);
    bptNames.set(group.bptId, group.bptName);
    sumInto(methods, group.method, group);
    sumInto(hours, group.hour * 2 + group.fold, group);
  }
  const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
  return {
    totals: withNet(total),
    byAccount: [...accounts]
      .map(([accountId, account]) => ({
        accountId,
        name: account.name,
        totals: withNet(account.sums),
        byBpt: [...account.bpts]
          .map(([bptId, sums]) => ({ bptId, name: bptNames.get(bptId) ?? '', totals: withNet(sums) }))
          .sort(byName),
      }))
      .sort(byName),
    byMethod: {
      lightning: withNet(methods.get('lightning') ?? zero()),
      onchain: withNet(methods.get('onchain') ?? zero()),
    },
    byHour: [...hours]
      .sort(([a], [b]) => a - b)
      .map(([key, sums]) => ({ hour: Math.floor(key / 2), fold: (key % 2) as 0 | 1, totals: withNet(sums) })),
  };
}

/**
 * The local days a scheduled close covers, given the last one (the day it is mailed at closing
 * time): that day alone, the seven days to it, or its calendar month to it.
 */
export function closePeriodOf(frequency: CloseFrequency, lastDay: string): { fromDay: string; toDay: string } {
  if (frequency === 'daily') return { fromDay: lastDay, toDay: lastDay };
  if (frequency === 'monthly') return { fromDay: `${lastDay.slice(0, 8)}01`, toDay: lastDay };
  const last = new Date(`${lastDay}T00:00:00Z`);
  last.setUTCDate(last.getUTCDate() - 6);
  return { fromDay: last.toISOString().slice(0, 10), toDay: lastDay };
}

const HOUR_MS = 3_600_000;

/** The wall-clock hour (0–23) of an instant in a zone. */
function wallHourAt(epochMs: number, timeZone: string): number {
  return Number(isoInstantInZone(epochMs, timeZone).slice(11, 13));
}

/**
 * The hours of a local day in a zone, in the order they pass: 24, 23 the day the clocks go
 * forward (the skipped hour is not there), 25 the day they go back (the repeated hour twice, its
 * second run with `fold` 1). Zones that move by half an hour (Lord Howe) give a half hour as a
 * whole one.
 */
export function hoursOfDay(day: string, timeZone: string): Array<{ hour: number; fold: 0 | 1 }> {
  const [year = 0, month = 0, date = 0] = day.split('-').map(Number);
  const start = startOfDay({ year, month, day: date }, timeZone) * 1000;
  const end = startOfDay({ year, month, day: date + 1 }, timeZone) * 1000;
  const hours: Array<{ hour: number; fold: 0 | 1 }> = [];
  for (let at = start; at < end; at += HOUR_MS) {
    const hour = wallHourAt(at, timeZone);
    hours.push({ hour, fold: hours.some((seen) => seen.hour === hour) ? 1 : 0 });
  }
  return hours;
}

/** The hours that run twice on some day of [fromDay, toDay] in a zone: the days the clocks go back. */
export function repeatedHoursOf(fromDay: string, toDay: string, timeZone: string): Set<number> {
  const repeated = new Set<number>();
  for (let day = new Date(`${fromDay}T00:00:00Z`); day.toISOString().slice(0, 10) <= toDay; ) {
    for (const { hour, fold } of hoursOfDay(day.toISOString().slice(0, 10), timeZone)) {
      if (fold === 1) repeated.add(hour);
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return repeated;
}
