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

  it('preloads the public checkout and donation pages from the head, without zod', () => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;
    const html = readFileSync(`${dist}index.html`, 'utf8');
    const script = /<script async src="\/(assets\/preload-[^"]+\.js)">/.exec(html)?.[1];
    expect(script, 'the head has no preload script').toBeDefined();
    const preload = readFileSync(`${dist}${script}`, 'utf8');
    const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry) as string;
    const loaded = routeFiles(manifest, [entry]);
    for (const page of ['src/pages/checkout/CheckoutPage.tsx', 'src/pages/donation/DonationPage.tsx']) {
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
  });
});
