/**
 * Dashboard benchmarks (issue 4 "Scale and speed"), each beside its floor measured in the same
 * run on the same machine:
 * - a page of the table (limit 10) for every preset and for random periods and accounts;
 * - the sums of every preset;
 * - the CSV of the 1,000,000-sale organization, its whole history: rows per second and the
 *   server's resident memory while it streams;
 * - back office's country reports (all countries and Guatemala, JSON and CSV) and marking 500
 *   sales paid (which leaves them paid: the generator's next run starts afresh);
 * - the JavaScript and CSS the login and home routes download, gzipped, and the first load of the
 *   home page on the demo data in Chromium, until the metric cards show their figures.
 *
 * The API figures run against a real Rayo process on the scale database that
 * `node bench/generate-transactions.ts` builds; the home page runs on a fresh embedded database
 * with the demo seed: its cold start until ready is reported, and the time its demo sales take
 * to be recorded in the background, before the first loads.
 *
 *   npm run bench:dashboard      (BENCH_SKIP_BUILD=1 reuses apps/web/dist; BENCH_SKIP_API=1 or
 *                                BENCH_SKIP_WEB=1 leaves a half out; BENCH_ONLY_CSV=1 measures
 *                                only the CSV of the API half, BENCH_ONLY_REPORTS=1 only the back
 *                                office's country reports and mark as paid)
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Account, type PeriodPreset, type PeriodRange, periodRange, type SignInResponse } from '@rayo/shared';
import Fastify from 'fastify';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { chromium, type Page, type Response } from 'playwright';
import { Agent, request } from 'undici';
import { repoRoot } from '../apps/server/src/config.ts';
import { DEMO_PASSWORD } from '../apps/server/src/db/seed-demo.ts';
import { BEGIN_LEDGER_CSV, ledgerCsvQuery } from '../apps/server/src/modules/dashboard/dashboard.repo.ts';
import { BACK_OFFICE_EMAIL, BIG_ORG_EMAIL, SCALE_PASSWORD, startScaleCluster } from './generate-transactions.ts';
import { formatResult, type LoadResult, runLoad, summarize } from './load.ts';
import { startRayo, stopRayo } from './rayo-process.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const FIRST_LOADS = Number(process.env.BENCH_FIRST_LOADS ?? 5);
const TIME_ZONE = 'America/Guatemala';
const PRESETS: PeriodPreset[] = ['today', 'yesterday', 'last30', 'thisMonth', 'thisYear', 'all'];
/** Downloads of the big organization's CSV, each after its floor (BENCH_CSV_RUNS). */
const CSV_RUNS = Number(process.env.BENCH_CSV_RUNS ?? 3);
const agent = new Agent({ connections: CONCURRENCY * 2 });

async function call<T>(url: string, method: 'GET' | 'POST', body?: object, token?: string): Promise<T> {
  const response = await request(url, {
    method,
    dispatcher: agent,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.body.text();
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

function query(range: PeriodRange, extra: Record<string, string | number> = {}): string {
  const entries = Object.entries({ ...range, ...extra }).filter(([, value]) => value !== undefined);
  return new URLSearchParams(entries.map(([key, value]): [string, string] => [key, String(value)])).toString();
}

/** A field of /proc/<pid>/status in MiB (VmRSS: resident now, VmHWM: the peak so far). */
async function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return kib / 1024;
}

/** A random period inside the two years of data: 1 to 90 whole days, in the merchant's zone. */
function randomPeriod(now: Date): PeriodRange {
  const startDay = Math.floor(Math.random() * 720);
  const length = 1 + Math.floor(Math.random() * 90);
  const today = periodRange('today', now, TIME_ZONE);
  const dayStart = (today.start as number) - startDay * 86_400;
  return { start: dayStart, end: dayStart + length * 86_400 };
}

async function floorSelect(url: string): Promise<LoadResult> {
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  const result = await runLoad(REQUESTS, CONCURRENCY, async () => {
    await pool.query('select 1');
  });
  await pool.end();
  return result;
}

async function floorEmptyRoute(): Promise<LoadResult> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({}));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const result = await runLoad(REQUESTS, CONCURRENCY, () => call(url, 'GET'));
  await app.close();
  return result;
}

type Rate = { rows: number; seconds: number; rowsPerSecond: number };

/**
 * The floor of the CSV: the ledger query the endpoint runs, with its settings, as PostgreSQL's
 * own `COPY … TO STDOUT` read in this process; the endpoint adds the formatting and HTTP.
 */
async function floorCopy(url: string, organizationId: string): Promise<Rate> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t0 = performance.now();
  await client.query(BEGIN_LEDGER_CSV);
  const stream = client.query(copyTo(ledgerCsvQuery({ organizationId, accountIds: null, from: null, to: null })));
  let rows = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows += 1;
  }
  const seconds = (performance.now() - t0) / 1000;
  await client.query('commit');
  await client.end();
  return { rows, seconds, rowsPerSecond: rows / seconds };
}

/** Streams the whole-history CSV, counting rows and sampling the server's RSS every 20 ms. */
async function csvDownload(url: string, token: string, pid: number) {
  const hwmBefore = await memoryMiB(pid, 'VmHWM');
  const rssBefore = await memoryMiB(pid, 'VmRSS');
  let rssPeak = rssBefore;
  let lines = 0;
  // RSS as the rows go by: flat memory means the late samples look like the early ones.
  const timeline: { lines: number; rss: number }[] = [];
  const sampler = setInterval(() => {
    memoryMiB(pid, 'VmRSS').then(
      (rss) => {
        rssPeak = Math.max(rssPeak, rss);
        timeline.push({ lines, rss });
      },
      () => {},
    );
  }, 20);
  const t0 = performance.now();
  const response = await request(`${url}/api/dashboard/transactions/csv`, {
    dispatcher: agent,
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.statusCode !== 200) throw new Error(`CSV: ${response.statusCode} ${await response.body.text()}`);
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const hwmAfter = await memoryMiB(pid, 'VmHWM');
  // Quoted fields may hold no line breaks here (no free text in the ledger), so lines = rows + header.
  const rows = lines - 1;
  const rssAt = (share: number) =>
    timeline.find((sample) => sample.lines >= share * rows)?.rss ?? timeline.at(-1)?.rss ?? rssBefore;
  const quartiles = [0.25, 0.5, 0.75, 1].map(rssAt);
  return { rows, bytes, seconds, rowsPerSecond: rows / seconds, rssBefore, rssPeak, hwmBefore, hwmAfter, quartiles };
}

/** A script or style sheet a page fetched: its path, the bytes on the wire, and its size gzipped. */
type Asset = { file: string; transferred: number; raw: number; gzip: number };
type RouteWeight = { files: string[]; rawKiB: number; transferredKiB: number; gzipKiB: number };

/**
 * Records every JavaScript and CSS response of a page. `transferred` is the response body as
 * it crossed the wire (compressed when the server compresses), `gzip` the file from
 * apps/web/dist gzipped at level 9: the second does not depend on how the server serves it.
 */
function recordAssets(page: Page): () => Promise<Asset[]> {
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (/\.(js|css)$/.test(new URL(response.url()).pathname)) responses.push(response);
  });
  return async () => {
    const dist = path.join(repoRoot, 'apps/web/dist');
    const assets = new Map<string, Asset>();
    for (const response of responses) {
      const file = new URL(response.url()).pathname;
      await response.finished();
      const content = await readFile(path.join(dist, file));
      const { responseBodySize } = await response.request().sizes();
      assets.set(file, {
        file,
        transferred: responseBodySize,
        raw: content.length,
        gzip: gzipSync(content, { level: 9 }).length,
      });
    }
    return [...assets.values()];
  };
}

function routeWeight(assets: readonly Asset[]): RouteWeight {
  const kib = (pick: (asset: Asset) => number) => assets.reduce((sum, asset) => sum + pick(asset), 0) / 1024;
  return {
    files: assets.map((asset) => asset.file),
    rawKiB: kib((asset) => asset.raw),
    transferredKiB: kib((asset) => asset.transferred),
    gzipKiB: kib((asset) => asset.gzip),
  };
}

function describeWeight(name: string, weight: RouteWeight): string {
  return `${name}: ${weight.files.length} JS and CSS files (${weight.files.join(', ')}): ${weight.rawKiB.toFixed(0)} KiB, **${weight.gzipKiB.toFixed(0)} KiB gzipped** (level 9), ${weight.transferredKiB.toFixed(0)} KiB transferred.`;
}

type WebFigures = {
  times: number[];
  login: RouteWeight;
  /** What `/` fetched until its metric cards showed their sums. */
  homeFirst: RouteWeight;
  /** Everything `/` fetched once the network went quiet (charts and the rest included). */
  homeAll: RouteWeight;
};

/**
 * The login page's weight for a signed-out visitor, then cold first loads of `/` for a signed-in
 * admin, each in a fresh browser context (empty cache): the time from navigation start until
 * the four metric cards are visible with the loaded sums, and what the first load fetched.
 */
async function firstLoads(url: string): Promise<WebFigures> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const signIn = await browser.newContext();
    const page = await signIn.newPage();
    const loginAssets = recordAssets(page);
    await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
    const login = routeWeight(await loginAssets());
    await page.getByRole('textbox', { name: 'Email' }).fill('admin@rayo.local');
    await page.getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    const storageState = await signIn.storageState();
    await signIn.close();

    const times: number[] = [];
    let homeFirst: RouteWeight | undefined;
    let homeAll: RouteWeight | undefined;
    for (let i = 0; i < FIRST_LOADS; i += 1) {
      const context = await browser.newContext({ storageState });
      const cold = await context.newPage();
      const homeAssets = i === 0 ? recordAssets(cold) : undefined;
      const sums = cold.waitForResponse((r) => r.url().includes('/api/dashboard/transactions/sum'));
      await cold.goto(`${url}/`, { waitUntil: 'commit' });
      await sums;
      // Polled every frame: the first frame where the cards are laid out, not busy, and filled.
      // A string, evaluated in the page: the benchmark's own types know no DOM.
      const handle = await cold.waitForFunction(
        `(() => {
          const section = document.querySelector('section[aria-busy="false"]');
          const cards = section ? [...section.querySelectorAll('[data-testid^="metric-"]')] : [];
          const shown = cards.length === 4 && cards.every((card) => card.offsetParent !== null);
          return shown ? performance.now() : false;
        })()`,
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      times.push((await handle.jsonValue()) as number);
      if (homeAssets) {
        homeFirst = routeWeight(await homeAssets());
        await cold.waitForLoadState('networkidle');
        homeAll = routeWeight(await homeAssets());
      }
      await context.close();
    }
    if (!homeFirst || !homeAll) throw new Error('No first load was measured');
    return { times, login, homeFirst, homeAll };
  } finally {
    await browser.close();
  }
}

function line(name: string, result: LoadResult): string {
  return formatResult(name, result);
}

/** Pages and sums for every preset and for random periods and accounts, beside their floors. */
async function pageAndSumBenchmarks(
  lines: string[],
  scale: { url: string; rayoUrl: string; accessToken: string; accounts: Account[] },
) {
  const { url: scaleUrl, rayoUrl: url, accessToken, accounts } = scale;
  const get = (route: string) => async () => {
    await call(`${url}${route}`, 'GET', undefined, accessToken);
  };
  const now = new Date();
  const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)] as T;
  const randomAccount = () => (Math.random() < 0.5 ? 'all' : pick(accounts).id);

  // Warm up JIT, pools and PostgreSQL's buffers on the same mix before measuring.
  await runLoad(200, CONCURRENCY, async () => {
    const range = Math.random() < 0.5 ? periodRange(pick(PRESETS), now, TIME_ZONE) : randomPeriod(now);
    await get(`/api/dashboard/transactions?${query(range, { limit: 10, account: randomAccount() })}`)();
    await get(`/api/dashboard/transactions/sum?${query(range)}`)();
  });

  const routeFloor = await floorEmptyRoute();
  const selectFloor = await floorSelect(scaleUrl);
  lines.push(`Concurrency ${CONCURRENCY}, loopback.\n`);
  lines.push('| measurement | requests | per second | p50 ms | p95 ms | p99 ms |');
  lines.push('|---|---|---|---|---|---|');
  lines.push(line('floor: empty Fastify route', routeFloor));
  lines.push(line('floor: PostgreSQL `select 1`', selectFloor));

  const perPreset = Math.max(50, Math.floor(REQUESTS / PRESETS.length));
  for (const preset of PRESETS) {
    const range = periodRange(preset, now, TIME_ZONE);
    const result = await runLoad(
      perPreset,
      CONCURRENCY,
      get(`/api/dashboard/transactions?${query(range, { limit: 10 })}`),
    );
    lines.push(line(`page (limit 10), ${preset}, all accounts`, result));
  }
  const randomPages: number[] = [];
  const begin = performance.now();
  await runLoad(REQUESTS, CONCURRENCY, async () => {
    const t0 = performance.now();
    const range = Math.random() < 0.3 ? periodRange(pick(PRESETS), now, TIME_ZONE) : randomPeriod(now);
    await get(`/api/dashboard/transactions?${query(range, { limit: 10, account: randomAccount() })}`)();
    randomPages.push(performance.now() - t0);
  });
  lines.push(
    line('page (limit 10), random periods and accounts', summarize(randomPages, (performance.now() - begin) / 1000)),
  );
  const deep = await runLoad(
    Math.floor(REQUESTS / 4),
    CONCURRENCY,
    get(`/api/dashboard/transactions?${query({}, { limit: 10, page: 1000 })}`),
  );
  lines.push(line('page 1000 (limit 10), all history', deep));

  for (const preset of PRESETS) {
    const range = periodRange(preset, now, TIME_ZONE);
    const result = await runLoad(perPreset, CONCURRENCY, get(`/api/dashboard/transactions/sum?${query(range)}`));
    lines.push(line(`sums, ${preset}, all accounts`, result));
  }
  const sumLatencies: number[] = [];
  const sumBegin = performance.now();
  await runLoad(REQUESTS, CONCURRENCY, async () => {
    const t0 = performance.now();
    const range = periodRange(pick(PRESETS), now, TIME_ZONE);
    const account = pick(accounts).id;
    await get(`/api/dashboard/transactions/sum/${account}?${query(range)}`)();
    sumLatencies.push(performance.now() - t0);
  });
  lines.push(line('sums, random preset, one account', summarize(sumLatencies, (performance.now() - sumBegin) / 1000)));
}

/** SPEC §7 country reports as back office, and mark as paid of 500 sales at a time. */
async function reportBenchmarks(lines: string[], scale: { url: string; rayoUrl: string }): Promise<void> {
  const { url: scaleUrl, rayoUrl: url } = scale;
  const { accessToken } = await call<SignInResponse>(`${url}/api/auth/signin`, 'POST', {
    email: BACK_OFFICE_EMAIL,
    password: SCALE_PASSWORD,
  });
  const client = new pg.Client({ connectionString: scaleUrl });
  await client.connect();
  const guatemala = (await client.query<{ id: number }>("select id from countries where code = 'GT'")).rows[0]?.id;
  const pending = (
    await client.query<{ n: string; orgs: string }>(
      'select coalesce(sum(pending_count), 0)::text as n, count(distinct organization_id)::text as orgs from disbursement_totals',
    )
  ).rows[0];
  const payRuns = 10;
  // The generated organizations enter no bank accounts, so back office confirms paying them another way.
  const unpaid = (
    await client.query<{ id: string; organization_id: string }>(
      'select id, organization_id from transactions where not disbursed and fiat_msat > 0 order by settled_at, id limit $1',
      [payRuns * 500],
    )
  ).rows;
  const unpaidIds = unpaid.map((row) => row.id);
  const withoutBankAccount = [...new Set(unpaid.map((row) => row.organization_id))];
  await client.end();
  lines.push('');
  lines.push(
    `Back office: ${pending?.n} sales with an unpaid fiat part in the scale database, over ${pending?.orgs} organizations' totals.\n`,
  );
  lines.push('| measurement | requests | per second | p50 ms | p95 ms | p99 ms |');
  lines.push('|---|---|---|---|---|---|');
  const routes: Array<[string, string]> = [
    ['country report, all countries', '/api/back-office/country/report'],
    ['country report, Guatemala', `/api/back-office/country/${guatemala}/report`],
    ['country report CSV, all countries', '/api/back-office/country/report/csv'],
    ['country report CSV, Guatemala', `/api/back-office/country/${guatemala}/report/csv`],
  ];
  const fetchText = (route: string) => async () => {
    const response = await request(`${url}${route}`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${route}: ${response.statusCode}`);
  };
  await runLoad(50, CONCURRENCY, fetchText(routes[0]?.[1] as string));
  const perRoute = Math.max(100, Math.floor(REQUESTS / 4));
  for (const [name, route] of routes) lines.push(line(name, await runLoad(perRoute, CONCURRENCY, fetchText(route))));
  const batches = Array.from({ length: Math.floor(unpaidIds.length / 500) }, (_, i) =>
    unpaidIds.slice(i * 500, (i + 1) * 500),
  );
  const payLatencies: number[] = [];
  const payBegin = performance.now();
  for (const batch of batches) {
    const t0 = performance.now();
    await call(
      `${url}/api/back-office/pay-transactions`,
      'POST',
      { transactionsIds: batch, withoutBankAccount },
      accessToken,
    );
    payLatencies.push(performance.now() - t0);
  }
  if (payLatencies.length > 0) {
    lines.push(
      line(
        'mark as paid, 500 sales per call, one at a time',
        summarize(payLatencies, (performance.now() - payBegin) / 1000),
      ),
    );
  }
}

async function apiBenchmarks(lines: string[]): Promise<void> {
  const cluster = await startScaleCluster();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-bench-dashboard-'));
  const rayo = await startRayo({ DATABASE_URL: cluster.url, DATA_DIR: dataDir });
  try {
    const pid = rayo.child.pid as number;
    const { accessToken } = await call<SignInResponse>(`${rayo.url}/api/auth/signin`, 'POST', {
      email: BIG_ORG_EMAIL,
      password: SCALE_PASSWORD,
    });
    const accounts = await call<Account[]>(`${rayo.url}/api/accounts`, 'GET', undefined, accessToken);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    const organizationId = (
      await client.query<{ organization_id: string }>('select organization_id from users where email = $1', [
        BIG_ORG_EMAIL,
      ])
    ).rows[0]?.organization_id as string;
    const count = (await client.query('select count(*)::int as n from transactions')).rows[0]?.n;
    const bigCount = (
      await client.query('select count(*)::int as n from transactions where organization_id = $1', [organizationId])
    ).rows[0]?.n;
    await client.end();
    lines.push(
      `Scale database: ${count} transactions, ${bigCount} in the big organization, ${accounts.length} accounts there.\n`,
    );

    if (process.env.BENCH_ONLY_REPORTS === '1') {
      await reportBenchmarks(lines, { url: cluster.url, rayoUrl: rayo.url });
      return;
    }
    if (process.env.BENCH_ONLY_CSV !== '1') {
      await pageAndSumBenchmarks(lines, { url: cluster.url, rayoUrl: rayo.url, accessToken, accounts });
      await reportBenchmarks(lines, { url: cluster.url, rayoUrl: rayo.url });
    }
    lines.push('');
    lines.push('| CSV, whole history of the big organization | rows | seconds | rows per second | MiB |');
    lines.push('|---|---|---|---|---|');
    const memory: string[] = [];
    for (let run = 1; run <= CSV_RUNS; run += 1) {
      const copyFloor = await floorCopy(cluster.url, organizationId);
      const csv = await csvDownload(rayo.url, accessToken, pid);
      lines.push(
        `| run ${run}, floor: PostgreSQL \`COPY … TO STDOUT\` read by a local client | ${copyFloor.rows} | ${copyFloor.seconds.toFixed(1)} | ${copyFloor.rowsPerSecond.toFixed(0)} | |`,
      );
      lines.push(
        `| run ${run}, GET /api/dashboard/transactions/csv | ${csv.rows} | ${csv.seconds.toFixed(1)} | ${csv.rowsPerSecond.toFixed(0)} | ${(csv.bytes / 2 ** 20).toFixed(0)} |`,
      );
      memory.push(
        `Server memory during CSV run ${run}: RSS ${csv.rssBefore.toFixed(0)} MiB before, peak sampled RSS ${csv.rssPeak.toFixed(0)} MiB; VmHWM ${csv.hwmBefore.toFixed(0)} → ${csv.hwmAfter.toFixed(0)} MiB; RSS after 25/50/75/100 % of the rows: ${csv.quartiles.map((rss) => rss.toFixed(0)).join(' / ')} MiB.`,
      );
    }
    lines.push('', ...memory);
  } finally {
    await stopRayo(rayo.child);
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Waits until the server has recorded the demo's sales, which it does after it is ready. */
async function waitForDemoData(url: string): Promise<string | undefined> {
  for (;;) {
    const { demoData } = (await call<{ demoData?: string }>(`${url}/api/ready`, 'GET')) ?? {};
    if (demoData !== 'preparing') return demoData;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function webBenchmarks(lines: string[]): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'ignore' });

  lines.push('');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-bench-home-'));
  // The embedded PostgreSQL runs as another user when we are root; it must reach its directory.
  await chmod(dataDir, 0o755);
  const t0 = performance.now();
  const rayo = await startRayo({
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(16_000 + Math.floor(Math.random() * 1000)),
  });
  const coldStart = (performance.now() - t0) / 1000;
  try {
    const demoData = await waitForDemoData(rayo.url);
    const seeded = (performance.now() - t0) / 1000;
    lines.push(
      `Cold start on a fresh data directory (initdb, migrations, the demo's organizations and users, listen) until /api/ready: **${coldStart.toFixed(1)} s**; the demo's year of sales ${demoData === 'ready' ? `recorded in the background by ${seeded.toFixed(1)} s` : 'not seeded'}.`,
    );
    const { times, login, homeFirst, homeAll } = await firstLoads(rayo.url);
    lines.push(describeWeight('Login route (signed out, until the network is quiet)', login));
    lines.push(describeWeight('Home route until its metric cards show their sums', homeFirst));
    lines.push(describeWeight('Home route until the network is quiet (charts included)', homeAll));
    const sorted = [...times].sort((a, b) => a - b);
    lines.push(
      `First load of / on the demo data in Chromium, navigation start → metric cards shown, ${times.length} cold contexts: median ${(sorted[Math.floor(sorted.length / 2)] as number).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(', ')} ms).`,
    );
  } finally {
    await stopRayo(rayo.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const lines: string[] = [];
lines.push(
  `\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; load average before the run ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
try {
  if (process.env.BENCH_SKIP_API !== '1') await apiBenchmarks(lines);
  // The reports alone need no web build and no second Rayo.
  if (process.env.BENCH_SKIP_WEB !== '1' && process.env.BENCH_ONLY_REPORTS !== '1') await webBenchmarks(lines);
} finally {
  await agent.close();
  console.log(lines.join('\n'));
}
