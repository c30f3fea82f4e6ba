import type { BlockReason } from '@rayo/shared';

/** What issuing an invoice reads of the seller: whether it may sell, its name, and the cached price of `currency`. */
export type SellerRow = {
  name: string;
  /** Why back office blocked it; null when it may sell. */
  blockedReason: BlockReason | null;
  rate: { rateMinorPerBtc: bigint; fetchedAt: Date } | undefined;
};

/** A left-joined cached rate: none when its columns are null. */
export function toSellerRate(rateMinorPerBtc: string | null, fetchedAt: Date | null): SellerRow['rate'] {
  return rateMinorPerBtc === null || fetchedAt === null
    ? undefined
    : { rateMinorPerBtc: BigInt(rateMinorPerBtc), fetchedAt };
}
