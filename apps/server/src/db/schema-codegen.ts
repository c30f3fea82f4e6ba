import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PostgresDialect, serializeFromMetadata } from 'kysely-codegen';
import type { Db } from './database.ts';

/** Written by `npm run db:schema`; `schema.ts` names its types for the rest of the code. */
export const GENERATED_SCHEMA_FILE = path.join(import.meta.dirname, 'schema.generated.ts');

const SHARED = '@rayo/shared';
const COLUMN_TYPES = './column-types.ts';

/** Where a column's type comes from, for the columns whose database type says less than the code knows. */
const customImports: Record<string, string> = {
  BlockReason: SHARED,
  DeveloperTokenScope: SHARED,
  InvoiceStatus: SHARED,
  Language: SHARED,
  PayoutDestinationKind: SHARED,
  PayoutState: SHARED,
  RefundMethod: SHARED,
  RefundState: SHARED,
  Role: SHARED,
  SaleSource: SHARED,
  ShopPlatform: SHARED,
  WebhookDeliveryType: SHARED,
  WebhookEventType: SHARED,
  BankingInfoMetadata: SHARED,
  CheckoutKind: COLUMN_TYPES,
  CheckoutPaidVia: COLUMN_TYPES,
  CheckoutStatusColumn: COLUMN_TYPES,
  EmailCodePurpose: COLUMN_TYPES,
  OnchainBatchState: COLUMN_TYPES,
  OnchainState: COLUMN_TYPES,
  OnchainWaitReason: COLUMN_TYPES,
  PayoutDestinationValue: COLUMN_TYPES,
  PayoutKind: COLUMN_TYPES,
};

/**
 * Text columns narrowed to the values their check constraints allow, and JSON columns to what
 * the code writes (as JSON text) and reads back. A nullable or defaulted column says so here too:
 * an override replaces the generated type whole.
 */
const columns: Record<string, string> = {
  'organizations.language': 'Language',
  'organizations.blocked_reason': 'BlockReason | null',
  'users.role': 'Role',
  'users.language': 'Language',
  'developer_tokens.scope': 'Generated<DeveloperTokenScope>',
  'checkouts.kind': 'CheckoutKind',
  'checkouts.status': 'Generated<CheckoutStatusColumn>',
  'checkouts.paid_via': 'CheckoutPaidVia | null',
  'checkouts.metadata': 'ColumnType<Record<string, unknown> | null, string | null, string | null>',
  'invoices.status': 'Generated<InvoiceStatus>',
  'invoices.source': 'Generated<SaleSource>',
  'transactions.source': 'Generated<SaleSource>',
  'email_codes.purpose': 'EmailCodePurpose',
  'audit_log.before': 'ColumnType<unknown, string | null, string | null>',
  'audit_log.after': 'ColumnType<unknown, string | null, string | null>',
  'notifications.payload': 'ColumnType<unknown, string, string>',
  'banking_info.metadata': 'ColumnType<BankingInfoMetadata, string, string>',
  'checkout_onchain_addresses.state': 'Generated<OnchainState>',
  'webhook_endpoints.events': 'WebhookEventType[]',
  'webhook_deliveries.type': 'WebhookDeliveryType',
  'webhook_deliveries.payload': 'ColumnType<Record<string, unknown>, string, never>',
  'shop_connections.platform': 'ShopPlatform',
  'shop_orders.platform': 'ShopPlatform',
  'payouts.kind': 'PayoutKind',
  'payouts.state': 'Generated<PayoutState>',
  'payout_transactions.kind': 'PayoutKind',
  'refunds.method': 'RefundMethod',
  'refunds.state': 'Generated<RefundState>',
  'onchain_payout_batches.state': 'OnchainBatchState',
  'onchain_payout_batches.inputs': 'ColumnType<unknown, string, string>',
  'onchain_batch_versions.inputs': 'ColumnType<unknown, string, string>',
  'onchain_payout_waits.reason': 'OnchainWaitReason',
  'payout_destination_changes.kind': 'PayoutDestinationKind',
  'payout_destination_changes.before_value': 'ColumnType<PayoutDestinationValue | null, string | null, string | null>',
  'payout_destination_changes.after_value': 'ColumnType<PayoutDestinationValue, string, string>',
};

/**
 * The TypeScript kysely-codegen writes for the database `db` reaches, which must be migrated to the
 * latest. Only our tables: graphile-worker's schema is its own. Throws when an override names a
 * column the database does not have, so a renamed column cannot keep a stale type.
 */
export async function generateSchemaSource(db: Db): Promise<string> {
  const dialect = new PostgresDialect({ defaultSchemas: ['public'] });
  // kysely-codegen is CommonJS and sees Kysely's CommonJS type declarations: the same class to
  // everything but the type checker.
  type IntrospectedDb = Parameters<typeof dialect.introspector.introspect>[0]['db'];
  const metadata = await dialect.introspector.introspect({
    db: db as unknown as IntrospectedDb,
    includePattern: 'public.*',
  });
  const known = new Set(
    metadata.tables.flatMap((table) => table.columns.map((column) => `${table.name}.${column.name}`)),
  );
  const unknown = Object.keys(columns).filter((column) => !known.has(column));
  if (unknown.length > 0) throw new Error(`Type overrides for columns the database lacks: ${unknown.join(', ')}`);
  return serializeFromMetadata({
    metadata,
    dialect,
    defaultSchemas: ['public'],
    customImports,
    overrides: { columns },
  });
}

export function readGeneratedSchema(): Promise<string> {
  return readFile(GENERATED_SCHEMA_FILE, 'utf8');
}
