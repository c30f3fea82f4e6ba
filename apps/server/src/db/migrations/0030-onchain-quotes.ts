import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // An address's amount in satoshis is a quote, good for as long as the Lightning invoice it was
  // made with: a payment first seen after it is judged against the price of that moment. Addresses
  // made before this column get the life their checkout's invoice had (24 hours for a link).
  await sql`alter table checkout_onchain_addresses add column quote_expires_at timestamptz`.execute(db);
  await sql`
    update checkout_onchain_addresses a
    set quote_expires_at = coalesce(
      (select c.expires_at from checkouts c where c.id = a.checkout_id),
      a.created_at + interval '24 hours'
    )
  `.execute(db);
  await sql`alter table checkout_onchain_addresses alter column quote_expires_at set not null`.execute(db);
}
