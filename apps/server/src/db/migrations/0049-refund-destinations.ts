import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A refund is also paid to a Lightning invoice or address the customer gives: such a refund
  // has no withdraw link (k1), and keeps what the admin typed as its destination.
  await sql`alter table refunds drop constraint refunds_method_check`.execute(db);
  await sql`alter table refunds add constraint refunds_method_check
    check (method in ('lnurl-withdraw', 'lightning-invoice', 'lightning-address'))`.execute(db);
  await sql`alter table refunds alter column k1 drop not null`.execute(db);
  await sql`alter table refunds add column destination text`.execute(db);
  // The LNURL-pay metadata an address's invoice commits to by hash: Core Lightning's pay needs it.
  await sql`alter table refunds add column payment_description text`.execute(db);
  await sql`alter table refunds add constraint refunds_link_or_destination
    check ((method = 'lnurl-withdraw') = (k1 is not null))`.execute(db);
  // One invoice pays one refund: a second refund given an invoice the node already paid would
  // otherwise be recorded paid by the node's answer about the first.
  await sql`create unique index refunds_payment_hash_idx on refunds (payment_hash) where payment_hash is not null`.execute(
    db,
  );
}
