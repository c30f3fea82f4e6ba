import type {
  BankingInfoMetadata,
  DeveloperTokenScope,
  InvoiceStatus,
  Language,
  PayoutDestinationKind,
  Role,
  SaleSource,
  ShopPlatform,
  WebhookDeliveryType,
  WebhookEventType,
} from '@rayo/shared';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  country_id: number | null;
  language: Language;
  time_zone: string;
  currency: Generated<string>;
  blocked: Generated<boolean>;
  bank_verified: Generated<boolean>;
  crypto_verified: Generated<boolean>;
  disbursement_address_verified: Generated<boolean>;
  conversion_address_verified: Generated<boolean>;
  kyb_verified: Generated<boolean>;
  created_at: Generated<Date>;
  /** Payout destinations (migration 0012); null until the merchant sets them. */
  onchain_address: string | null;
  lightning_address: string | null;
  /** The payout split in basis points; the three add up to 10000 (migration 0013). */
  payout_fiat_bps: Generated<number>;
  payout_onchain_bps: Generated<number>;
  payout_lightning_bps: Generated<number>;
  /** `#rrggbb` in lower case, or null for the product's own (migration 0015). */
  accent_color: string | null;
  /** DESIGN §9 (migration 0015). */
  checkout_protection: Generated<boolean>;
}

export interface UsersTable {
  id: Generated<string>;
  organization_id: string | null;
  email: string;
  name: string;
  password_hash: string;
  role: Role;
  language: Language;
  /** Null until the emailed link is followed; users made by an admin or the CLI are confirmed. */
  email_confirmed_at: Date | null;
  created_at: Generated<Date>;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  /** The tokens descending from one sign-in, each replacing the one before. */
  family_id: Generated<string>;
  /** When this token was used and replaced by the next of its family. */
  rotated_at: Date | null;
  created_at: Generated<Date>;
}

/** Refresh tokens for scripts (migration 0014): they do not rotate, and last until revoked or expired. */
export interface DeveloperTokensTable {
  id: Generated<string>;
  organization_id: string;
  /** The admin whose rights the token's access tokens carry. */
  user_id: string;
  name: string | null;
  token_hash: string;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Generated<Date>;
  /** Migration 0034: what its access tokens may do. */
  scope: Generated<DeveloperTokenScope>;
}

export interface CountriesTable {
  id: Generated<number>;
  name: string;
  code: string;
}

export interface AccountsTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  internal_code: string | null;
  created_at: Generated<Date>;
}

export interface ManagerAccountsTable {
  user_id: string;
  account_id: string;
}

export interface RateLimitHitsTable {
  key: string;
  window_start: Date;
  hits: number;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

/** Migration 0016: an online seller whose sales land on a real terminal's account and currency. */
export interface VirtualBptsTable {
  id: Generated<string>;
  organization_id: string;
  bpt_id: string;
  name: string;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

/** Migration 0018: an LNURL-pay donation link sold through a virtual BPT; null amount accepts any. */
export interface DonationLinksTable {
  id: Generated<string>;
  organization_id: string;
  virtual_bpt_id: string;
  title: string;
  description: Generated<string>;
  amount_msat: ColumnType<string | null, bigint | null, bigint | null>;
  comment_allowed: number;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

/** Migration 0018: one donor's invoice; `received_at` is set when it settles. */
export interface DonationsTable {
  id: Generated<string>;
  organization_id: string;
  donation_link_id: string;
  invoice_id: string;
  amount_msat: Int8;
  comment: string | null;
  created_at: Generated<Date>;
  received_at: Date | null;
}

/** Migration 0018: the organization's Lightning address name and the donation link it pays. */
export interface DonationAddressesTable {
  organization_id: string;
  username: string;
  donation_link_id: string;
  updated_at: Generated<Date>;
}

/** Migration 0017: a payment link or a store's order, paid once by a Lightning invoice or on-chain. */
export interface CheckoutsTable {
  id: Generated<string>;
  organization_id: string;
  virtual_bpt_id: string;
  kind: 'payment_link' | 'store';
  description: string;
  /** `SAT`, or the linked BPT's fiat currency. */
  amount_currency: string;
  /** Satoshis when `amount_currency` is `SAT`, else fiat minor units. */
  amount_minor: Int8;
  status: Generated<'awaiting_payment' | 'processing' | 'paid' | 'expired'>;
  paid_via: 'lightning' | 'onchain' | null;
  paid_at: Date | null;
  expires_at: Date | null;
  order_id: string | null;
  redirect_url: string | null;
  /** The store's own keys, returned in its webhooks; written as JSON text. */
  metadata: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  late_payment: Generated<boolean>;
  extra_payment: Generated<boolean>;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

export interface BptsTable {
  id: Generated<string>;
  organization_id: string;
  account_id: string;
  name: string;
  channel: string;
  currency: string;
  shareable: Generated<boolean>;
  share_token: string | null;
  tip_enabled: Generated<boolean>;
  tax_bps: Generated<number>;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

/** bigint columns arrive as strings from pg; repos convert them to bigint at the edge. */
type Int8 = ColumnType<string, bigint | string, bigint | string>;

export interface InvoicesTable {
  id: Generated<string>;
  organization_id: string;
  account_id: string;
  bpt_id: string | null;
  payment_hash: string;
  payment_request: string;
  description: string;
  amount_msat: Int8;
  currency: string;
  bill_minor: Int8;
  tip_minor: Int8;
  tax_minor: Int8;
  total_minor: Int8;
  rate_minor_per_btc: Int8;
  status: Generated<InvoiceStatus>;
  expires_at: Date;
  settled_at: Date | null;
  created_at: Generated<Date>;
  /** Migration 0016: what the invoice sells, the row of that source, and the virtual BPT selling it. */
  source: Generated<SaleSource>;
  source_id: string | null;
  virtual_bpt_id: string | null;
}

export interface TransactionsTable {
  id: Generated<string>;
  invoice_id: string;
  payment_hash: string;
  organization_id: string;
  account_id: string;
  bpt_id: string | null;
  created_at: Date;
  settled_at: Date;
  currency: string;
  bill_minor: Int8;
  tip_minor: Int8;
  tax_minor: Int8;
  total_minor: Int8;
  total_msat: Int8;
  rate_minor_per_btc: Int8;
  tx_fee_msat: Int8;
  conversion_fee_msat: Int8;
  income_msat: Int8;
  fiat_bps: number;
  onchain_bps: number;
  lightning_bps: number;
  fiat_msat: Int8;
  onchain_msat: Int8;
  lightning_msat: Int8;
  fiat_income_minor: Int8;
  disbursed: Generated<boolean>;
  source: Generated<SaleSource>;
  virtual_bpt_id: string | null;
}

/** Whole local days of sales per account and currency, kept by settleInvoice (see migration 0005). */
export interface TransactionDailyTable {
  organization_id: string;
  account_id: string;
  /** The local day in the organization's time zone; queries read it as `day::text` (YYYY-MM-DD). */
  day: ColumnType<string, string, string>;
  currency: string;
  count: Int8;
  total_msat: Int8;
  bitcoin_to_disburse_msat: Int8;
  total_minor: Int8;
  tip_minor: Int8;
  fiat_to_disburse_minor: Int8;
}

/** Per organization and sale currency: fiat parts pending and paid, and fees in USD (migration 0022). */
export interface DisbursementTotalsTable {
  organization_id: string;
  currency: string;
  pending_count: Int8;
  pending_fiat_minor: Int8;
  pending_msat: Int8;
  paid_count: Int8;
  paid_fiat_minor: Int8;
  paid_msat: Int8;
  fee_usd_micros: Int8;
}

export interface LightningCursorsTable {
  backend: string;
  settle_index: Int8;
}

export interface RatesTable {
  currency: string;
  rate_minor_per_btc: Int8;
  source: string;
  fetched_at: Date;
}

export interface DevnetInvoicesTable {
  payment_hash: string;
  preimage: string;
  payment_request: string;
  amount_msat: Int8;
  expires_at: Date;
  settle_index: Int8 | null;
  settled_at: Date | null;
  created_at: Generated<Date>;
}

export interface DevnetWithdrawalsTable {
  k1: string;
  max_msat: Int8;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface EmailCodesTable {
  id: Generated<string>;
  user_id: string;
  purpose: 'confirm_email' | 'reset_password';
  code_hash: string;
  expires_at: Date;
  used_at: Date | null;
  failed_attempts: Generated<number>;
  /** For a confirmation link: the password chosen at the sign-up that mailed it, set on confirming. */
  password_hash: string | null;
  created_at: Generated<Date>;
}

export interface AuditLogTable {
  id: Generated<string>;
  occurred_at: Generated<Date>;
  actor_user_id: string | null;
  actor_email: string | null;
  organization_id: string | null;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

export interface UserMfaTable {
  user_id: string;
  /** The TOTP secret, AES-256-GCM sealed (see modules/mfa/secret-cipher.ts). */
  secret_sealed: string;
  enabled_at: Date | null;
  /** bigint: PostgreSQL returns it as a string. */
  last_used_step: ColumnType<string | null, number | null, number | null>;
  created_at: Generated<Date>;
}

export interface MfaRecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  /** SHA-256 of the normalized code. */
  code_hash: string;
  used_at: Date | null;
}

export interface NotificationsTable {
  id: Generated<string>;
  organization_id: string;
  kind: string;
  payload: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
}

export interface BankingInfoTable {
  id: Generated<string>;
  organization_id: string;
  /** The fields of the country's banking-info template, by name. */
  metadata: ColumnType<Record<string, string>, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One logo per organization (migration 0015); `content_type` is sniffed from the bytes. */
export interface OrganizationLogosTable {
  organization_id: string;
  content_type: string;
  bytes: Buffer;
  size: number;
  sha256: string;
  updated_at: Generated<Date>;
}

/** KYB documents (migration 0015); `content_type` is sniffed from the bytes. */
export interface KybDocumentsTable {
  id: Generated<string>;
  organization_id: string;
  file_name: string;
  content_type: string;
  bytes: Buffer;
  size: number;
  sha256: string;
  uploaded_by: string | null;
  created_at: Generated<Date>;
}

/** Migration 0019: the devnet chain's blocks and the outputs its wallet sent (block_height null in the mempool). */
export interface DevnetChainBlocksTable {
  height: number;
  hash: string;
  mined_at: Generated<Date>;
}

export interface DevnetChainOutputsTable {
  txid: string;
  vout: number;
  address: string;
  value_sats: Int8;
  block_height: number | null;
  created_at: Generated<Date>;
  /** Migration 0025: the devnet transaction that spent it. */
  spent_by_txid: Generated<string | null>;
}

/** Migration 0029: the devnet chain's whole transactions (outputs are in devnet_chain_outputs). */
export interface DevnetChainTransactionsTable {
  txid: string;
  raw_hex: string;
  fee_sats: Int8;
  vsize: number;
  block_height: number | null;
  created_at: Generated<Date>;
}

/** Migration 0019: the next receive index of each on-chain wallet. */
export interface OnchainWalletCountersTable {
  wallet: string;
  next_index: Generated<number>;
}

export type OnchainState = 'awaiting_payment' | 'confirming' | 'underpaid' | 'confirmed';

/** Migration 0019: a checkout's on-chain address and what the watcher last saw paid to it. */
export interface CheckoutOnchainAddressesTable {
  checkout_id: string;
  organization_id: string;
  address: string;
  wallet: string;
  derivation_path: string;
  derivation_index: number;
  amount_sats: Int8;
  rate_minor_per_btc: Int8;
  received_sats: ColumnType<string, bigint | string | undefined, bigint | string>;
  confirmations: Generated<number>;
  state: Generated<OnchainState>;
  watch_until: Date;
  /** Until when `amount_sats` holds: a payment first seen later is judged against a new quote. */
  quote_expires_at: Date;
  created_at: Generated<Date>;
}

export interface CheckoutOnchainOutputsTable {
  checkout_id: string;
  txid: string;
  vout: number;
  value_sats: Int8;
  block_height: number | null;
  invoice_id: string | null;
  seen_at: Generated<Date>;
}

/** Migration 0020: where an organization's webhooks go; the secret is sealed (modules/webhooks/webhook-secret.ts). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  organization_id: string;
  url: string;
  secret_sealed: string;
  events: WebhookEventType[];
  active: Generated<boolean>;
  created_at: Generated<Date>;
}

/** Migration 0023: a merchant's Shopify or Ecwid store; the secret is sealed (modules/shops/shops.service.ts). */
export interface ShopConnectionsTable {
  id: Generated<string>;
  organization_id: string;
  platform: ShopPlatform;
  shop: string;
  shop_name: string | null;
  virtual_bpt_id: string;
  secret_sealed: string;
  created_at: Generated<Date>;
  /** Migration 0026: Shopify's webhook signing secret (the app's client secret), sealed. */
  webhook_secret_sealed: string | null;
  /** Migration 0033: the Shopify app's client id, sealed; null for a legacy custom app's token. */
  client_id_sealed: string | null;
  /** Migration 0033: the Admin API token last minted with the client credentials grant, sealed. */
  access_token_sealed: string | null;
  access_token_expires_at: Date | null;
}

/** Migration 0026: Shopify webhook deliveries already handled, by X-Shopify-Webhook-Id. */
export interface ShopWebhookDeliveriesTable {
  connection_id: string;
  webhook_id: string;
  topic: string;
  received_at: Generated<Date>;
}

/** Migration 0023: a shop order sent to a checkout, and telling the shop it is paid. */
export interface ShopOrdersTable {
  id: Generated<string>;
  connection_id: string;
  organization_id: string;
  platform: ShopPlatform;
  platform_order_id: string;
  checkout_id: string;
  store_token_sealed: string | null;
  marked_paid_at: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Generated<Date>;
}

/** Migration 0020: one event for one endpoint, and how its delivery went. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  endpoint_id: string;
  organization_id: string;
  type: WebhookDeliveryType;
  /** Written as JSON text, read back parsed. */
  payload: ColumnType<Record<string, unknown>, string, never>;
  created_at: Generated<Date>;
  attempts: Generated<number>;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  next_attempt_at: Date | null;
}

/** Migration 0024: payouts of the Lightning (and on-chain) shares, and which sale's share each carries. */
export type PayoutKind = 'lightning' | 'onchain';
export type PayoutStateColumn = 'pending' | 'sent' | 'failed' | 'cancelled';

export interface PayoutsTable {
  id: Generated<string>;
  organization_id: string;
  kind: PayoutKind;
  destination: string;
  amount_msat: Int8;
  fee_msat: Int8;
  state: Generated<PayoutStateColumn>;
  idempotency_key: string;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  payment_request: string | null;
  payment_hash: string | null;
  invoice_expires_at: Date | null;
  preimage: string | null;
  txid: string | null;
  sent_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Migration 0026: the LNURL metadata the invoice's description hash commits to. */
  invoice_metadata: string | null;
  /** Migration 0025: the on-chain batch (one Bitcoin transaction) an on-chain payout is in. */
  batch_id: Generated<string | null>;
}

/** Migration 0025: one Bitcoin transaction paying a run's on-chain payouts. */
export type OnchainBatchState = 'awaiting_signature' | 'signed' | 'broadcast' | 'confirmed';

export interface OnchainPayoutBatchesTable {
  id: Generated<string>;
  state: OnchainBatchState;
  txid: string;
  /** Base64 BIP 174. */
  psbt: string;
  /** Hex, once signed. */
  raw_tx: string | null;
  fee_sats: Int8;
  fee_rate_sat_per_kvb: Int8;
  vsize: number;
  inputs: ColumnType<unknown, string, string>;
  change_address: string | null;
  change_index: number | null;
  change_sats: Int8;
  block_height: number | null;
  confirmations: Generated<number>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  broadcast_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PayoutTransactionsTable {
  transaction_id: string;
  kind: PayoutKind;
  payout_id: string;
  amount_msat: Int8;
}

/** An address, or a bank account's fields. */
export type PayoutDestinationValue = string | BankingInfoMetadata;

/** Migration 0031: a change of a payout destination, held until verified or cooled down. */
export interface PayoutDestinationChangesTable {
  id: Generated<string>;
  organization_id: string;
  kind: PayoutDestinationKind;
  /** An address's text, or a bank account's fields; null when there was none. */
  before_value: ColumnType<PayoutDestinationValue | null, string | null, string | null>;
  before_verified: boolean;
  after_value: ColumnType<PayoutDestinationValue, string, string>;
  changed_by_user_id: string | null;
  changed_by_email: string | null;
  changed_at: Generated<Date>;
  admins_mailed_at: Date | null;
  release_at: Date | null;
  cancelled_at: Date | null;
  cancel_token_hash: string;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  developer_tokens: DeveloperTokensTable;
  countries: CountriesTable;
  accounts: AccountsTable;
  manager_accounts: ManagerAccountsTable;
  rate_limit_hits: RateLimitHitsTable;
  server_secrets: ServerSecretsTable;
  bpts: BptsTable;
  virtual_bpts: VirtualBptsTable;
  donation_links: DonationLinksTable;
  donations: DonationsTable;
  donation_addresses: DonationAddressesTable;
  checkouts: CheckoutsTable;
  invoices: InvoicesTable;
  transactions: TransactionsTable;
  transaction_daily: TransactionDailyTable;
  disbursement_totals: DisbursementTotalsTable;
  lightning_cursors: LightningCursorsTable;
  rates: RatesTable;
  devnet_invoices: DevnetInvoicesTable;
  devnet_withdrawals: DevnetWithdrawalsTable;
  audit_log: AuditLogTable;
  user_mfa: UserMfaTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  email_codes: EmailCodesTable;
  notifications: NotificationsTable;
  banking_info: BankingInfoTable;
  organization_logos: OrganizationLogosTable;
  kyb_documents: KybDocumentsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  shop_connections: ShopConnectionsTable;
  shop_orders: ShopOrdersTable;
  shop_webhook_deliveries: ShopWebhookDeliveriesTable;
  devnet_chain_blocks: DevnetChainBlocksTable;
  devnet_chain_outputs: DevnetChainOutputsTable;
  devnet_chain_transactions: DevnetChainTransactionsTable;
  onchain_wallet_counters: OnchainWalletCountersTable;
  checkout_onchain_addresses: CheckoutOnchainAddressesTable;
  checkout_onchain_outputs: CheckoutOnchainOutputsTable;
  payouts: PayoutsTable;
  payout_transactions: PayoutTransactionsTable;
  onchain_payout_batches: OnchainPayoutBatchesTable;
  payout_destination_changes: PayoutDestinationChangesTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
