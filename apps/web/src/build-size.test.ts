import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * What each route downloads, from the last `npm run build` (npm test builds before it tests):
 * the entry with every chunk it imports statically, their style sheets, and for the home page the
 * lazily loaded chunks its first render waits for (the page, its layout, the query provider and
 * the prefetch) with their own. Gzipped at level 9, sizes that are the same on every machine; the
 * charts, the transactions table and the date picker load after the metric cards show, and are
 * not counted.
 */
const dist = `${path.resolve(import.meta.dirname, '../dist')}/`;
const manifestPath = `${dist}.vite/manifest.json`;

type Chunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] };

/** KiB, gzipped. */
const BUDGET = { login: 149, home: 218 };

/**
 * What a buyer's, donor's or cashier's phone downloads before the public page's first paint: the
 * entry's files and the page's with the layout and query provider around it, in KiB gzipped and
 * in files. The files count as much as the bytes: on slow 4G over HTTP/1.1 a phone asks six at a
 * time, a round trip each, and 35–38 small chunks each were what took these pages' Lighthouse
 * scores from 98 to the 80s (docs/benchmarks.md). The KiB fell when each page stopped carrying
 * every icon of the app (vite.config.ts, importIconsFromEachModule).
 */
const PUBLIC_PAGES = {
  checkout: { page: 'src/pages/checkout/CheckoutPage.tsx', kib: 186, files: 11 },
  donation: { page: 'src/pages/donation/DonationPage.tsx', kib: 193, files: 11 },
  terminal: { page: 'src/pages/terminal/TerminalPage.tsx', kib: 209, files: 13 },
};
const AROUND_PUBLIC_PAGES = ['src/layouts/PlainLayout.tsx', 'src/components/QueryRoutes.tsx'];

function routeFiles(manifest: Record<string, Chunk>, roots: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  return files;
}

function gzippedKiB(files: Set<string>): number {
  let bytes = 0;
  for (const file of files) bytes += gzipSync(readFileSync(`${dist}${file}`), { level: 9 }).length;
  return bytes / 1024;
}

describe('the built web app', () => {
  it('keeps the login and home routes within their budgets', () => {
    expect(existsSync(manifestPath), `${manifestPath} is missing: run npm run build first`).toBe(true);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;
    const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry) as string;
    const login = routeFiles(manifest, [entry]);
    const home = routeFiles(manifest, [
      entry,
      'src/components/QueryRoutes.tsx',
      'src/pages/home/home-prefetch.ts',
      'src/layouts/MainLayout.tsx',
      'src/pages/home/HomePage.tsx',
    ]);
    expect(home.size).toBeGreaterThan(login.size);
    expect(gzippedKiB(login)).toBeLessThanOrEqual(BUDGET.login);
    expect(gzippedKiB(home)).toBeLessThanOrEqual(BUDGET.home);
  });

  it('keeps what each public page loads before its first paint within its budget', () => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;
    const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry) as string;
    for (const [name, { page, kib, files }] of Object.entries(PUBLIC_PAGES)) {
      const loaded = routeFiles(manifest, [entry, ...AROUND_PUBLIC_PAGES, page]);
      expect(loaded.size, `${name}: files`).toBeLessThanOrEqual(files);
      expect(gzippedKiB(loaded), `${name}: KiB`).toBeLessThanOrEqual(kib);
    }
  });

  it('preloads the public checkout, donation and terminal pages from the head, without zod', () => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;
    const html = readFileSync(`${dist}index.html`, 'utf8');
    const script = /<script async src="\/(assets\/preload-[^"]+\.js)">/.exec(html)?.[1];
    expect(script, 'the head has no preload script').toBeDefined();
    const preload = readFileSync(`${dist}${script}`, 'utf8');
    const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry) as string;
    const loaded = routeFiles(manifest, [entry]);
    for (const { page } of Object.values(PUBLIC_PAGES)) {
      const files = routeFiles(manifest, [page]);
      // zod's schemas are in a chunk of their own, which a page that validates nothing does not need.
      const withZod = [...files].filter((file) => readFileSync(`${dist}${file}`, 'utf8').includes('ZodObject'));
      expect(withZod, page).toEqual([]);
      for (const file of files) {
        if (!loaded.has(file)) expect(preload, `${page}: ${file}`).toContain(`/${file}`);
      }
    }
    expect(preload).toContain('/public/checkouts/');
    expect(preload).toContain('/public/donation-links/');
    expect(preload).toContain('/terminal/');
  });
});
