/**
 * Lighthouse's mobile run (its default preset: a mid-range phone on slow 4G, simulated) of the
 * public pages, in Debian's Chromium: the hosted checkout of a payment link, a donation page, a
 * shareable terminal and the login page. Each page is run LIGHTHOUSE_RUNS times and the median
 * performance score and Largest Contentful Paint are printed; figures go in docs/benchmarks.md.
 *
 * Lighthouse is run from npm with npx (LIGHTHOUSE_VERSION), so that it is not a dependency of
 * the project. Against a running Rayo: `BENCH_URL=http://127.0.0.1:8080 node bench/lighthouse.ts`;
 * without BENCH_URL it starts one on a fresh data directory. The demo admin creates the pages.
 * LIGHTHOUSE_PAGES=checkout,donation runs only those; LIGHTHOUSE_REPORTS=dir keeps each run's full
 * report there (its diagnostics: the LCP element and breakdown, requests, main-thread work).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Bpt, DonationLink, PaymentLink, SignInResponse, VirtualBpt } from '@rayo/shared';
import { startRayo, stopRayo } from './rayo-process.ts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const LIGHTHOUSE = `lighthouse@${process.env.LIGHTHOUSE_VERSION ?? '12.8.2'}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Which pages to run, by name (checkout, donation, terminal, login); all by default. */
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(',');
const REPORTS = process.env.LIGHTHOUSE_REPORTS;

async function call<T>(url: string, method: 'GET' | 'POST' | 'PATCH', body?: object, token?: string): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The public pages, made for the demo organization: a payment link, a donation, a shared terminal. */
async function publicPages(url: string): Promise<Record<string, string>> {
  const { accessToken } = await call<SignInResponse>(`${url}/api/auth/signin`, 'POST', {
    email: 'admin@rayo.local',
    password: 'Rayo-demo-2026!',
  });
  const [bpt] = await call<Bpt[]>(`${url}/api/bpts`, 'GET', undefined, accessToken);
  if (!bpt) throw new Error('The demo organization has no BPT');
  const shared = await call<Bpt>(`${url}/api/bpts/${bpt.id}`, 'PATCH', { shareable: true }, accessToken);
  const virtualBpt = await call<VirtualBpt>(
    `${url}/api/virtual-bpts`,
    'POST',
    { name: `Lighthouse ${Date.now()}`, bptId: bpt.id },
    accessToken,
  );
  const link = await call<PaymentLink>(
    `${url}/api/virtual-bpts/${virtualBpt.id}/payment-links`,
    'POST',
    { description: 'Two coffees and a croissant', amount: '60.00', currency: bpt.currency },
    accessToken,
  );
  const donation = await call<DonationLink>(
    `${url}/api/donation-links`,
    'POST',
    { virtualBptId: virtualBpt.id, title: 'Support the café', description: 'Thank you!' },
    accessToken,
  );
  return {
    checkout: `${url}/ecommerce/checkout/${link.id}`,
    donation: `${url}/donation/${donation.id}`,
    terminal: `${url}/bpts/${shared.shareToken}`,
    login: `${url}/login`,
  };
}

type Run = { score: number; lcpMs: number; fcpMs: number; tbtMs: number };

async function lighthouse(page: string, name: string): Promise<Run> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rayo-lighthouse-'));
  const report = path.join(dir, 'report.json');
  try {
    await promisify(execFile)(
      'npx',
      [
        '--yes',
        LIGHTHOUSE,
        page,
        '--only-categories=performance',
        '--output=json',
        `--output-path=${report}`,
        '--chrome-flags=--headless --no-sandbox',
        '--quiet',
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 },
    );
    if (REPORTS) await copyFile(report, path.join(REPORTS, `${name}-${Date.now()}.json`));
    const result = JSON.parse(await readFile(report, 'utf8')) as {
      categories: { performance: { score: number } };
      audits: Record<string, { numericValue: number }>;
    };
    const audit = (id: string) => Math.round(result.audits[id]?.numericValue ?? Number.NaN);
    return {
      score: Math.round(result.categories.performance.score * 100),
      lcpMs: audit('largest-contentful-paint'),
      fcpMs: audit('first-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Lighthouse sometimes loses the trace of a load on a busy machine (NO_NAVSTART); such a run is run again. */
async function lighthouseRetried(page: string, name: string): Promise<Run> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lighthouse(page, name);
    } catch (error) {
      if (attempt === 3) throw error;
      console.warn(`run failed, again: ${(error as { stderr?: string }).stderr?.trim() ?? error}`);
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const started = process.env.BENCH_URL
  ? undefined
  : await startRayo({ DATA_DIR: await mkdtemp(path.join(tmpdir(), 'rayo-lh-')) });
const url = process.env.BENCH_URL ?? started?.url ?? '';
try {
  const pages = await publicPages(url);
  console.log(`Lighthouse ${LIGHTHOUSE}, mobile preset, ${RUNS} runs per page, ${CHROMIUM}`);
  for (const [name, page] of Object.entries(pages).filter(([name]) => !PAGES || PAGES.includes(name))) {
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await lighthouseRetried(page, name));
    const of = (key: keyof Run) => runs.map((run) => run[key]);
    console.log(
      `${name.padEnd(9)} score ${median(of('score'))} (${of('score').join(', ')}), ` +
        `LCP ${median(of('lcpMs'))} ms (${of('lcpMs').join(', ')}), FCP ${median(of('fcpMs'))} ms, TBT ${median(of('tbtMs'))} ms`,
    );
  }
} finally {
  if (started) await stopRayo(started.child);
}
