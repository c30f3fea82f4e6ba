/**
 * Builds the scale database of issue 4: 1,000 organizations, 10,000,000 settled sales over two
 * years, one organization with 1,000,000 of them, plus the matching invoices and the daily rollup.
 *
 * It runs its own embedded PostgreSQL under SCALE_DATA_DIR (default .data/scale, never the dev
 * database) on SCALE_PG_PORT (default 5499), drops and recreates the database `rayo_scale` on
 * every run, migrates it with Rayo's own migrations, and loads the ledger with COPY.
 *
 *   node bench/generate-transactions.ts          (SCALE_TRANSACTIONS=1000000 for a smaller run)
 *
 * Every figure comes from @rayo/shared (computeSale, fiatToMsat, computeSettlement), the code
 * settleInvoice runs, so each row passes the ledger's CHECK constraints, which stay on during
 * the load to prove it.
 */
import { randomFillSync, randomUUID } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  computeSale,
  computeSettlement,
  currencyExponent,
  fiatToMsat,
  type PayoutSplit,
  percentOf,
} from '@rayo/shared';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { repoRoot } from '../apps/server/src/config.ts';
import { createDatabase } from '../apps/server/src/db/database.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { createRandom, type Random } from '../apps/server/src/db/seed-demo-sales.ts';
import { hashPassword } from '../apps/server/src/modules/auth/passwords.ts';
import {
  DAILY_ROLLUP_REBUILD_SQL,
  DISBURSEMENT_TOTALS_REBUILD_SQL,
} from '../apps/server/src/modules/ledger/ledger.repo.ts';

export const SCALE_DATABASE = 'rayo_scale';
export const SCALE_DATA_DIR = path.resolve(repoRoot, process.env.SCALE_DATA_DIR ?? '.data/scale');
export const SCALE_PG_PORT = Number(process.env.SCALE_PG_PORT ?? 5499);
/** Every organization has one admin with this password; the big one's is BIG_ORG_EMAIL. */
export const SCALE_PASSWORD = 'Scale-pass-2026!';
export const BIG_ORG_EMAIL = 'admin-0000@scale.rayo.local';
/** Back office, with the same password: the country reports and mark as paid across organizations. */
export const BACK_OFFICE_EMAIL = 'backoffice@scale.rayo.local';

const ORGANIZATIONS = Number(process.env.SCALE_ORGANIZATIONS ?? 1000);
const TRANSACTIONS = Number(process.env.SCALE_TRANSACTIONS ?? 10_000_000);
/** The big organization's share: a tenth of the ledger, 1,000,000 of the 10,000,000. */
const BIG_TRANSACTIONS = Math.floor(TRANSACTIONS / 10);
const DAYS = 730;
const DAY_MS = 86_400_000;
const TX_FEE_BPS = 100;
const CONVERSION_FEE_BPS = 100;

/**
 * Countries whose zones keep one UTC offset all year, so local opening hours map to UTC with a
 * fixed offset. Bills are in major units; rates are the price of one bitcoin in minor units at the
 * start of the two years, drifting up over them like the real price did.
 */
const markets = [
  { country: 'GT', currency: 'GTQ', zone: 'America/Guatemala', offsetHours: -6, bill: [15, 250], rate: 45_000_000n },
  { country: 'SV', currency: 'USD', zone: 'America/El_Salvador', offsetHours: -6, bill: [2, 35], rate: 6_000_000n },
  { country: 'MX', currency: 'MXN', zone: 'America/Mexico_City', offsetHours: -6, bill: [40, 600], rate: 110_000_000n },
  {
    country: 'CR',
    currency: 'CRC',
    zone: 'America/Costa_Rica',
    offsetHours: -6,
    bill: [1500, 20000],
    rate: 3_100_000_000n,
  },
  {
    country: 'CO',
    currency: 'COP',
    zone: 'America/Bogota',
    offsetHours: -5,
    bill: [8000, 120000],
    rate: 24_000_000_000n,
  },
  { country: 'PE', currency: 'PEN', zone: 'America/Lima', offsetHours: -5, bill: [8, 120], rate: 22_500_000n },
  {
    country: 'AR',
    currency: 'ARS',
    zone: 'America/Argentina/Buenos_Aires',
    offsetHours: -3,
    bill: [3000, 40000],
    rate: 4_000_000_000n,
  },
  { country: 'BR', currency: 'BRL', zone: 'America/Sao_Paulo', offsetHours: -3, bill: [10, 150], rate: 30_000_000n },
] as const;
type Market = (typeof markets)[number];

/** Relative sales per local hour of a café day (07:00–21:59), busiest at breakfast and lunch. */
const HOUR_WEIGHTS = [0, 0, 0, 0, 0, 0, 0, 4, 8, 7, 5, 6, 10, 10, 6, 4, 5, 6, 5, 3, 2, 1, 0, 0];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
/** Sunday first, as Date.getUTCDay counts; weekends are busier. */
const WEEKDAY_WEIGHTS = [12, 8, 9, 9, 10, 11, 13];

/** Splits are in basis points; a third of the merchants take half their income in fiat. */
const SPLITS: PayoutSplit[] = [
  { fiatBps: 0, onchainBps: 0, lightningBps: 10_000 },
  { fiatBps: 5000, onchainBps: 0, lightningBps: 5000 },
  { fiatBps: 0, onchainBps: 2000, lightningBps: 8000 },
];

type Terminal = { accountId: string; bptId: string; tipEnabled: boolean; taxBps: number };
type Organization = {
  id: string;
  market: Market;
  terminals: Terminal[];
  split: PayoutSplit;
  total: number;
  /** Cumulative share of its total reached by the end of each day, out of dayWeightTotal. */
  cumulative: number[];
};

function log(message: string, since: number): void {
  console.log(`${message} (${((performance.now() - since) / 1000).toFixed(1)} s)`);
}

async function exec(client: pg.Client, text: string): Promise<void> {
  await client.query(text);
}

/** Dev and e2e data never live here: the cluster is the scale directory's own. */
async function recreateDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await exec(client, `drop database if exists ${SCALE_DATABASE} with (force)`);
    await exec(client, `create database ${SCALE_DATABASE}`);
  } finally {
    await client.end();
  }
}

/**
 * A server sized for a 10-million-row ledger on a 24 GiB machine rather than the embedded
 * default of 128 MB of buffers; wal_level=minimal lets COPY into a table truncated in the same
 * transaction skip the write-ahead log. Settings persist in the scale cluster only.
 */
async function tuneCluster(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const setting of [
      "shared_buffers = '6GB'",
      "effective_cache_size = '12GB'",
      "max_wal_size = '16GB'",
      "checkpoint_timeout = '30min'",
      "wal_level = 'minimal'",
      'max_wal_senders = 0',
      "maintenance_work_mem = '1GB'",
    ]) {
      await exec(client, `alter system set ${setting}`);
    }
  } finally {
    await client.end();
  }
}

export async function startScaleCluster(options: { tune?: boolean } = {}) {
  const start = () =>
    startEmbeddedPostgres({ dataDir: SCALE_DATA_DIR, port: SCALE_PG_PORT, database: 'postgres', persistent: true });
  let cluster = await start();
  if (options.tune) {
    // shared_buffers and wal_level only change on restart.
    await tuneCluster(cluster.url);
    await cluster.stop();
    cluster = await start();
  }
  return { ...cluster, adminUrl: cluster.url, url: cluster.url.replace(/\/postgres$/, `/${SCALE_DATABASE}`) };
}

/** One organization per row, each with 1–4 accounts (the big one 12), a GTQ-style BPT on each, one admin. */
async function createOrganizations(client: pg.Client, random: Random): Promise<Organization[]> {
  const passwordHash = await hashPassword(SCALE_PASSWORD);
  const countryIds = new Map(
    (await client.query<{ code: string; id: number }>('select code, id from countries')).rows.map((r) => [
      r.code,
      r.id,
    ]),
  );
  await client.query(
    `insert into users (organization_id, email, name, password_hash, role, language, email_confirmed_at)
     values (null, $1, 'Back office', $2, 'back_office', 'en', now())`,
    [BACK_OFFICE_EMAIL, passwordHash],
  );
  const bigShare = BIG_TRANSACTIONS;
  const rest = TRANSACTIONS - bigShare;
  const organizations: Organization[] = [];
  for (let n = 0; n < ORGANIZATIONS; n += 1) {
    const market = n === 0 ? markets[0] : (markets[random.below(markets.length)] as Market);
    const label = String(n).padStart(4, '0');
    const { rows } = await client.query<{ id: string }>(
      `insert into organizations (name, country_id, language, time_zone, currency)
       values ($1, $2, $3, $4, $5) returning id`,
      [
        n === 0 ? 'Big Café' : `Shop ${label}`,
        countryIds.get(market.country),
        n % 2 ? 'en' : 'es',
        market.zone,
        market.currency,
      ],
    );
    const id = (rows[0] as { id: string }).id;
    await client.query(
      `insert into users (organization_id, email, name, password_hash, role, language, email_confirmed_at)
       values ($1, $2, $3, $4, 'admin', 'en', now())`,
      [id, `admin-${label}@scale.rayo.local`, `Admin ${label}`, passwordHash],
    );
    const accounts = n === 0 ? 12 : 1 + random.below(4);
    const terminals: Terminal[] = [];
    for (let a = 0; a < accounts; a += 1) {
      const account = await client.query<{ id: string }>(
        'insert into accounts (organization_id, name, internal_code) values ($1, $2, $3) returning id',
        [id, `Account ${a + 1}`, `A${a + 1}`],
      );
      const accountId = (account.rows[0] as { id: string }).id;
      const tipEnabled = a % 3 !== 2;
      const taxBps = market.country === 'GT' ? 1200 : 0;
      const bpt = await client.query<{ id: string }>(
        `insert into bpts (organization_id, account_id, name, channel, currency, tip_enabled, tax_bps)
         values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [id, accountId, `Till ${a + 1}`, tipEnabled ? 'store' : 'online', market.currency, tipEnabled, taxBps],
      );
      terminals.push({ accountId, bptId: (bpt.rows[0] as { id: string }).id, tipEnabled, taxBps });
    }
    // The remainder of the even split goes to the first shops so that the totals are exact.
    const total =
      n === 0 ? bigShare : Math.floor(rest / (ORGANIZATIONS - 1)) + (n - 1 < rest % (ORGANIZATIONS - 1) ? 1 : 0);
    organizations.push({
      id,
      market,
      terminals,
      split: SPLITS[n % SPLITS.length] as PayoutSplit,
      total,
      cumulative: [],
    });
  }
  return organizations;
}

/**
 * Each organization's sales per day: a trend that grows over the two years (a young shop starts
 * later), the weekday pattern and some noise, turned into exact integer counts by cumulative
 * rounding so that the day counts add up to the organization's total.
 */
function planDays(organizations: Organization[], firstDay: number, random: Random): void {
  for (const organization of organizations) {
    const opening = organization === organizations[0] ? 0 : random.below(DAYS / 2);
    const weights: number[] = [];
    let sum = 0;
    for (let d = 0; d < DAYS; d += 1) {
      const weekday = new Date((firstDay + d) * DAY_MS).getUTCDay();
      const weight = d < opening ? 0 : (100 + d) * (WEEKDAY_WEIGHTS[weekday] as number) * (80 + random.below(41));
      weights.push(weight);
      sum += weight;
    }
    let running = 0;
    organization.cumulative = weights.map((weight) => {
      running += weight;
      // Integer arithmetic on safe integers: running × total stays below 2^53.
      return Number((BigInt(running) * BigInt(organization.total)) / BigInt(sum));
    });
  }
}

/** The price of a bitcoin on a day: +60 % over the two years, with a daily wobble of ±3 %. */
function rateOnDay(market: Market, day: number, random: Random): bigint {
  const basisPoints = BigInt(10_000 + Math.floor((6000 * day) / DAYS) + random.below(601) - 300);
  return (market.rate * basisPoints) / 10_000n;
}

/** A local hour drawn from HOUR_WEIGHTS. */
function drawHour(random: Random): number {
  let pick = random.below(HOUR_TOTAL);
  for (let hour = 0; hour < 24; hour += 1) {
    pick -= HOUR_WEIGHTS[hour] as number;
    if (pick < 0) return hour;
  }
  return 12;
}

const COLUMNS = [
  'invoice_id',
  'payment_hash',
  'organization_id',
  'account_id',
  'bpt_id',
  'created_at',
  'settled_at',
  'currency',
  'bill_minor',
  'tip_minor',
  'tax_minor',
  'total_minor',
  'total_msat',
  'rate_minor_per_btc',
  'tx_fee_msat',
  'conversion_fee_msat',
  'income_msat',
  'fiat_bps',
  'onchain_bps',
  'lightning_bps',
  'fiat_msat',
  'onchain_msat',
  'lightning_msat',
  'fiat_income_minor',
  'disbursed',
];

/** Yields COPY text lines, day by day and in time order within each day, as a real ledger fills. */
function* ledgerLines(organizations: Organization[], firstDay: number, now: number, random: Random) {
  const hashes = Buffer.alloc(32 * 4096);
  let hashOffset = hashes.length;
  const nextHash = () => {
    if (hashOffset === hashes.length) {
      randomFillSync(hashes);
      hashOffset = 0;
    }
    hashOffset += 32;
    return hashes.toString('hex', hashOffset - 32, hashOffset);
  };
  for (let d = 0; d < DAYS; d += 1) {
    const rows: { at: number; line: string }[] = [];
    for (const organization of organizations) {
      const count = (organization.cumulative[d] as number) - (d === 0 ? 0 : (organization.cumulative[d - 1] as number));
      if (count === 0) continue;
      const { market } = organization;
      const rate = rateOnDay(market, d, random);
      const scale = 10n ** BigInt(currencyExponent(market.currency));
      const [low, high] = market.bill;
      for (let i = 0; i < count; i += 1) {
        const local = (firstDay + d) * DAY_MS + drawHour(random) * 3_600_000 + random.below(3_600_000);
        const drawn = local - market.offsetHours * 3_600_000;
        // Sales the plan puts later than now happened in the last hours instead: nothing is in
        // the future and the totals stay exact.
        const settledAt = drawn <= now ? drawn : now - 1000 - random.below(4 * 3_600_000);
        const createdAt = settledAt - 5000 - random.below(85_000);
        const terminal = organization.terminals[random.below(organization.terminals.length)] as Terminal;
        const billMinor = BigInt(low) * scale + BigInt(random.below((high - low) * Number(scale) + 1));
        const tipBps = terminal.tipEnabled && random.below(3) === 0 ? 500 + random.below(3) * 500 : 0;
        const sale = computeSale({ billMinor, tipMinor: percentOf(billMinor, tipBps), taxBps: terminal.taxBps });
        const totalMsat = fiatToMsat(sale.totalMinor, rate, market.currency);
        const f = computeSettlement({
          totalMsat,
          rateMinorPerBtc: rate,
          currency: market.currency,
          txFeeBps: TX_FEE_BPS,
          conversionFeeBps: CONVERSION_FEE_BPS,
          split: organization.split,
        });
        const { split } = organization;
        // Payouts run daily: anything settled before yesterday has been disbursed.
        const disbursed = settledAt < now - 2 * DAY_MS ? 't' : 'f';
        rows.push({
          at: settledAt,
          line: `${randomUUID()}\t${nextHash()}\t${organization.id}\t${terminal.accountId}\t${terminal.bptId}\t${new Date(createdAt).toISOString()}\t${new Date(settledAt).toISOString()}\t${market.currency}\t${sale.billMinor}\t${sale.tipMinor}\t${sale.taxMinor}\t${sale.totalMinor}\t${totalMsat}\t${rate}\t${f.txFeeMsat}\t${f.conversionFeeMsat}\t${f.incomeMsat}\t${split.fiatBps}\t${split.onchainBps}\t${split.lightningBps}\t${f.fiatMsat}\t${f.onchainMsat}\t${f.lightningMsat}\t${f.fiatIncomeMinor}\t${disbursed}\n`,
        });
      }
    }
    rows.sort((a, b) => a.at - b.at);
    // Several hundred kilobytes per write keeps the stream's per-chunk overhead negligible.
    for (let i = 0; i < rows.length; i += 2000) {
      yield rows
        .slice(i, i + 2000)
        .map((row) => row.line)
        .join('');
    }
  }
}

type Definitions = { constraints: { table: string; name: string; definition: string }[]; indexes: string[] };

/**
 * The keys, foreign keys and indexes of the ledger tables (and foreign keys pointing at them),
 * read from the migrated schema so that whatever later migrations add is rebuilt too. CHECK
 * constraints are not listed: they stay on during the load.
 */
async function readDefinitions(client: pg.Client, tables: string[]): Promise<Definitions> {
  const constraints = await client.query<{ table: string; name: string; definition: string; type: string }>(
    `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition, contype as type
     from pg_constraint
     where contype in ('p', 'u', 'f') and (conrelid::regclass::text = any($1) or confrelid::regclass::text = any($1))
     order by case contype when 'p' then 0 when 'u' then 1 else 2 end`,
    [tables],
  );
  const indexes = await client.query<{ indexdef: string }>(
    `select indexdef from pg_indexes i
     where tablename = any($1) and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [tables],
  );
  return { constraints: constraints.rows, indexes: indexes.rows.map((r) => r.indexdef) };
}

async function dropDefinitions(client: pg.Client, definitions: Definitions): Promise<void> {
  for (const c of [...definitions.constraints].reverse()) {
    await exec(client, `alter table ${c.table} drop constraint ${c.name}`);
  }
  await exec(
    client,
    `do $$ declare r record; begin
       for r in select indexname from pg_indexes where tablename in ('invoices', 'transactions') loop
         execute format('drop index %I', r.indexname);
       end loop; end $$`,
  );
}

async function restoreDefinitions(client: pg.Client, definitions: Definitions): Promise<void> {
  for (const c of definitions.constraints) {
    await exec(client, `alter table ${c.table} add constraint ${c.name} ${c.definition}`);
  }
  for (const definition of definitions.indexes) await exec(client, definition);
}

/**
 * The invoice each sale paid, derived from its ledger row in one statement. Signing ten million
 * BOLT11 invoices would take hours (0.6 ms each), so `payment_request` holds an unsigned stand-in
 * of realistic length with the right prefix and amount; the dashboard never reads it.
 */
async function insertInvoices(client: pg.Client): Promise<void> {
  await exec(
    client,
    `insert into invoices (id, organization_id, account_id, bpt_id, payment_hash, payment_request, description,
       amount_msat, currency, bill_minor, tip_minor, tax_minor, total_minor, rate_minor_per_btc, status,
       expires_at, settled_at, created_at)
     select invoice_id, organization_id, account_id, bpt_id, payment_hash,
       'lnbcrt' || (total_msat * 10) || 'p1' || repeat(payment_hash, 4), 'Scale sale',
       total_msat, currency, bill_minor, tip_minor, tax_minor, total_minor, rate_minor_per_btc, 'settled',
       created_at + interval '15 minutes', settled_at, created_at
     from transactions`,
  );
}

/**
 * The daily rollup settleInvoice maintains (migration 0005), rebuilt from the ledger in one
 * statement. Does nothing on a schema without it.
 */
export async function buildDailyRollup(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query("select to_regclass('transaction_daily') is not null as present");
  if (!rows[0]?.present) return false;
  await exec(client, 'truncate transaction_daily');
  await exec(client, DAILY_ROLLUP_REBUILD_SQL);
  return true;
}

/**
 * The dollar price a settlement would find cached: the El Salvador market's price at the end of
 * the two years, which the rollup below converts every sale's fee to USD with.
 */
async function cacheUsdRate(client: pg.Client): Promise<void> {
  const dollars = markets.find((market) => market.currency === 'USD');
  if (!dollars) return;
  const rate = (dollars.rate * 16_000n) / 10_000n;
  await client.query(
    `insert into rates (currency, rate_minor_per_btc, source, fetched_at) values ('USD', $1, 'scale', now())
     on conflict (currency) do update set rate_minor_per_btc = excluded.rate_minor_per_btc`,
    [rate.toString()],
  );
}

/** The country reports' rollup (migration 0022), rebuilt from the ledger. Does nothing on a schema without it. */
export async function buildDisbursementTotals(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query("select to_regclass('disbursement_totals') is not null as present");
  if (!rows[0]?.present) return false;
  await exec(client, 'truncate disbursement_totals');
  await exec(client, DISBURSEMENT_TOTALS_REBUILD_SQL);
  return true;
}

async function main(): Promise<void> {
  const began = performance.now();
  const cluster = await startScaleCluster({ tune: true });
  try {
    await recreateDatabase(cluster.adminUrl);
    const db = createDatabase(cluster.url, 2);
    await migrateToLatest(db);
    await db.destroy();
    log(`Migrated ${SCALE_DATABASE} in ${SCALE_DATA_DIR}`, began);

    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    await exec(client, 'set synchronous_commit = off');
    await exec(client, "set maintenance_work_mem = '1GB'");
    await exec(client, 'set max_parallel_maintenance_workers = 2');
    const random = createRandom(20_260_101);
    const now = Date.now();
    const firstDay = Math.floor(now / DAY_MS) - DAYS + 1;

    const organizations = await createOrganizations(client, random);
    planDays(organizations, firstDay, random);
    log(`Created ${organizations.length} organizations`, began);

    const definitions = await readDefinitions(client, ['invoices', 'transactions']);
    await dropDefinitions(client, definitions);

    let t = performance.now();
    await exec(client, 'begin');
    // Truncating in the loading transaction lets COPY FREEZE write frozen rows without WAL.
    await exec(client, 'truncate transactions, invoices');
    const copy = client.query(copyFrom(`copy transactions (${COLUMNS.join(', ')}) from stdin with (freeze)`));
    const { Readable } = await import('node:stream');
    await pipeline(Readable.from(ledgerLines(organizations, firstDay, now, random)), copy);
    log(
      `COPY transactions: ${copy.rowCount} rows, ${(Number(copy.rowCount) / ((performance.now() - t) / 1000)).toFixed(0)} rows/s`,
      began,
    );
    t = performance.now();
    await insertInvoices(client);
    await exec(client, 'commit');
    log(`Invoices inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`, began);

    t = performance.now();
    await restoreDefinitions(client, definitions);
    log(`Keys, foreign keys and indexes rebuilt in ${((performance.now() - t) / 1000).toFixed(1)} s`, began);

    t = performance.now();
    await cacheUsdRate(client);
    if (await buildDisbursementTotals(client)) {
      log(`Disbursement totals built in ${((performance.now() - t) / 1000).toFixed(1)} s`, began);
    }

    t = performance.now();
    if (await buildDailyRollup(client)) {
      log(`Daily rollup built in ${((performance.now() - t) / 1000).toFixed(1)} s`, began);
    } else {
      console.log('No transaction_daily table in this schema: no rollup built.');
    }

    t = performance.now();
    await exec(client, 'vacuum analyze');
    log(`VACUUM ANALYZE in ${((performance.now() - t) / 1000).toFixed(1)} s`, began);

    const sizes = await client.query<{ name: string; size: string }>(
      `select relname as name, pg_size_pretty(pg_total_relation_size(oid)) as size from pg_class
       where relname in ('transactions', 'invoices', 'transaction_daily', 'disbursement_totals') union all
       select 'database', pg_size_pretty(pg_database_size(current_database()))`,
    );
    console.log(sizes.rows.map((r) => `${r.name}: ${r.size}`).join(', '));
    await client.end();
    log('Done', began);
  } finally {
    await cluster.stop();
  }
}

if (import.meta.main) await main();
