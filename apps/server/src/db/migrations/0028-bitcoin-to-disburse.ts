import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A sale's bitcoin still to disburse is its on-chain and Lightning shares less those in sent
  // payouts; marking its fiat paid no longer touches it. Whichever code path sends a payout (the
  // Lightning job, an on-chain batch, a node found to have paid), this trigger takes its shares
  // off the dashboard rollup in the same transaction. Rollup rows are locked in key order first,
  // as markTransactionsPaid does, so concurrent writers cannot deadlock on them.
  await sql`
    create function payout_sent_leaves_daily_rollup() returns trigger language plpgsql as $$
    begin
      perform 1 from transaction_daily d
      join (
        select distinct t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day,
          t.currency
        from payout_transactions pt
        join transactions t on t.id = pt.transaction_id
        join organizations o on o.id = t.organization_id
        where pt.payout_id = new.id
      ) p on d.organization_id = p.organization_id and d.account_id = p.account_id and d.day = p.day
        and d.currency = p.currency
      order by d.organization_id, d.day, d.account_id, d.currency
      for update of d;
      update transaction_daily d set bitcoin_to_disburse_msat = d.bitcoin_to_disburse_msat - p.msat
      from (
        select t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day, t.currency,
          sum(pt.amount_msat) as msat
        from payout_transactions pt
        join transactions t on t.id = pt.transaction_id
        join organizations o on o.id = t.organization_id
        where pt.payout_id = new.id
        group by 1, 2, 3, 4
      ) p
      where d.organization_id = p.organization_id and d.account_id = p.account_id and d.day = p.day
        and d.currency = p.currency;
      return null;
    end
    $$
  `.execute(db);
  await sql`
    create trigger payouts_sent_leave_daily_rollup after update of state on payouts
    for each row when (new.state = 'sent' and old.state <> 'sent')
    execute function payout_sent_leaves_daily_rollup()
  `.execute(db);

  // Until now marking the fiat paid also zeroed the bitcoin still to disburse, and sent payouts
  // did not lower it: the figure is set again from the ledger and the payouts.
  await sql`
    update transaction_daily d set bitcoin_to_disburse_msat = l.msat
    from (
      select t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day, t.currency,
        sum(t.onchain_msat + t.lightning_msat - coalesce(s.msat, 0)) as msat
      from transactions t
      join organizations o on o.id = t.organization_id
      left join (
        select pt.transaction_id, sum(pt.amount_msat) as msat
        from payout_transactions pt join payouts p on p.id = pt.payout_id
        where p.state = 'sent'
        group by 1
      ) s on s.transaction_id = t.id
      group by 1, 2, 3, 4
    ) l
    where d.organization_id = l.organization_id and d.account_id = l.account_id and d.day = l.day
      and d.currency = l.currency and d.bitcoin_to_disburse_msat <> l.msat
  `.execute(db);
}
