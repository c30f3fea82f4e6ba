import type { Insertable, Selectable } from 'kysely';
import type { DB } from './schema.generated.ts';

/**
 * The database's tables as the code names them. The types themselves are generated from the
 * migrated database (`npm run db:schema`, checked by schema.test.ts); this file only names them.
 */
export type Database = DB;

export type BptsTable = DB['bpts'];
export type CheckoutOnchainAddressesTable = DB['checkout_onchain_addresses'];
export type CheckoutOnchainOutputsTable = DB['checkout_onchain_outputs'];
export type CheckoutsTable = DB['checkouts'];
export type DonationAddressesTable = DB['donation_addresses'];
export type DonationLinksTable = DB['donation_links'];
export type EmailCodesTable = DB['email_codes'];
export type InvoicesTable = DB['invoices'];
export type OnchainPayoutBatchesTable = DB['onchain_payout_batches'];
export type TransactionsTable = DB['transactions'];
export type VirtualBptsTable = DB['virtual_bpts'];

export type Organization = Selectable<DB['organizations']>;
export type NewOrganization = Insertable<DB['organizations']>;
export type User = Selectable<DB['users']>;
export type InvoiceRow = Selectable<DB['invoices']>;
export type CheckoutRow = Selectable<DB['checkouts']>;
export type NewUser = Insertable<DB['users']>;

export type {
  OnchainBatchState,
  OnchainState,
  OnchainWaitReason,
  PayoutDestinationValue,
  PayoutKind,
} from './column-types.ts';
