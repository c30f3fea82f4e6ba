import { z } from 'zod';

/** A calendar day, `YYYY-MM-DD`, that exists (no 2026-02-30). */
export const DaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
  }, 'Not a calendar day');

export const DayCloseQuerySchema = z.object({
  day: DaySchema,
  account: z.union([z.literal('all'), z.uuid()]).default('all'),
  /** One terminal (BPT) only; its account must be within `account`. */
  bpt: z.uuid().optional(),
});
export type DayCloseQuery = z.infer<typeof DayCloseQuerySchema>;

/**
 * The figures of a set of sales. Fiat amounts are decimal strings in the organization's currency
 * and count the sales priced in it; bitcoin amounts are msat and count every sale.
 * `netMsat` = `grossMsat` − `feesMsat` − `refundsMsat`.
 */
export const CloseFiguresSchema = z.object({
  count: z.number().int(),
  gross: z.string(),
  tips: z.string(),
  tax: z.string(),
  refunds: z.string(),
  grossMsat: z.number().int(),
  feesMsat: z.number().int(),
  refundsMsat: z.number().int(),
  netMsat: z.number().int(),
});
export type CloseFigures = z.infer<typeof CloseFiguresSchema>;

export const PAYMENT_METHODS = ['lightning', 'onchain'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const DayCloseSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  totals: CloseFiguresSchema,
  byAccount: z.array(
    z.object({
      accountId: z.string(),
      name: z.string(),
      figures: CloseFiguresSchema,
      /** `bptId` null: sales booked on no terminal. */
      byBpt: z.array(z.object({ bptId: z.string().nullable(), name: z.string(), figures: CloseFiguresSchema })),
    }),
  ),
  byMethod: z.object({ lightning: CloseFiguresSchema, onchain: CloseFiguresSchema }),
  /**
   * The local hours of the day that had sales, 0–23, in the order they passed. The day the clocks
   * go back, the repeated hour comes twice: `fold` 0 its first run, 1 its second; `repeated`
   * marks both, so they are told apart on screen, in the CSV and in the PDF.
   */
  byHour: z.array(
    z.object({
      hour: z.number().int(),
      fold: z.union([z.literal(0), z.literal(1)]),
      repeated: z.boolean(),
      figures: CloseFiguresSchema,
    }),
  ),
});
export type DayClose = z.infer<typeof DayCloseSchema>;

/**
 * How an hour of the close is shown: `01:00`, or for an hour the clocks ran twice `01:00 (1st)` and
 * `01:00 (2nd)`, with the words of the reader's language for first and second.
 */
export function closeHourLabel(
  entry: { hour: number; fold: 0 | 1; repeated: boolean },
  runs: { first: string; second: string },
): string {
  const time = `${String(entry.hour).padStart(2, '0')}:00`;
  return entry.repeated ? `${time} (${entry.fold === 1 ? runs.second : runs.first})` : time;
}

export const CLOSE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type CloseFrequency = (typeof CLOSE_FREQUENCIES)[number];

export const CloseScheduleInputSchema = z.object({
  account: z.union([z.literal('all'), z.uuid()]),
  frequency: z.enum(CLOSE_FREQUENCIES),
  /** The closing time, `HH:MM` local: the report of each period is mailed then on its last day. */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  managers: z.boolean().default(false),
});
export type CloseScheduleInput = z.infer<typeof CloseScheduleInputSchema>;

export const CloseScheduleSchema = z.object({
  id: z.string(),
  account: z.string(),
  frequency: z.enum(CLOSE_FREQUENCIES),
  time: z.string(),
  managers: z.boolean(),
  /** The admin who set it up; the report goes to them. */
  email: z.string(),
});
export type CloseSchedule = z.infer<typeof CloseScheduleSchema>;
export const CloseScheduleListSchema = z.object({ schedules: z.array(CloseScheduleSchema) });
export type CloseScheduleList = z.infer<typeof CloseScheduleListSchema>;
