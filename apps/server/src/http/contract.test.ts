import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { contract } from '@rayo/shared/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiRoute, registeredRoutes } from '../../test/registered-routes.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { handWrittenPermissions } from './permissions.ts';

/**
 * Every API route is defined in the shared contract (docs/architecture.md "Route contract"),
 * except the routes of the files listed here, each with the reason it stays by hand: redirects,
 * LNURL answers and Shopify's raw-body webhooks, which keep hand-written lines in the permission
 * table. A file whose last such route moves to the contract must leave
 * the list.
 */
const routeFilesByHand = [
  // Its Bolt Card service answers as LNURL does (below); the wallet's other calls are in the contract.
  'devnet/devnet.routes.ts',
  // LNURL answers a refusal as 200 `{ status: 'ERROR', reason }` (LUD-01), not `{ code, message }`,
  // and serves the Lightning address at `/.well-known/lnurlp/:name`, outside `/api`.
  'donations/lnurlp.routes.ts',
  // The refund links' LNURL-withdraw service answers as LNURL does (above); the rest is in the contract.
  'refunds/refunds.routes.ts',
  // Shopify signs its webhooks over the raw bytes of the body, which this route alone receives unparsed.
  'shops/shopify-webhooks.routes.ts',
  // The shopper's entries (the Shopify pay link, Ecwid's payment form) answer redirects; the admin's calls are in the contract.
  'shops/shops.routes.ts',
];

const modulesDir = path.join(import.meta.dirname, '../modules');

/** Each route file of the modules, with how many routes it registers by hand. */
function routeFiles(): Map<string, number> {
  const files = new Map<string, number>();
  for (const module of readdirSync(modulesDir)) {
    for (const file of readdirSync(path.join(modulesDir, module))) {
      if (!file.endsWith('.routes.ts')) continue;
      const source = readFileSync(path.join(modulesDir, module, file), 'utf8');
      const byHand = source.match(/\.(get|post|put|patch|delete)\(\s*['`]\/|\.route\(\s*\{/g);
      files.set(`${module}/${file}`, byHand?.length ?? 0);
    }
  }
  return files;
}

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('the route contract', () => {
  it('defines the routes of every route file but those kept by hand for the reason beside each', () => {
    const files = routeFiles();
    const byHand = [...files].filter(([, count]) => count > 0).map(([file]) => file);
    expect(
      byHand.filter((file) => !routeFilesByHand.includes(file)),
      'registered by hand',
    ).toEqual([]);
    expect(
      routeFilesByHand.filter((file) => !byHand.includes(file)),
      'migrated (or gone): take them off the list',
    ).toEqual([]);
  });

  it('registers every call it defines, and only the routes kept by hand are outside it', () => {
    const registered = registeredRoutes(t.app).filter(isApiRoute);
    expect(
      Object.keys(contract).filter((key) => !registered.includes(key)),
      'defined, not registered',
    ).toEqual([]);
    const outside = registered.filter((route) => !(route in contract)).sort();
    expect(outside).toEqual(Object.keys(handWrittenPermissions).sort());
  });

  it('keeps no hand-written permission line for a call of the contract', () => {
    expect(Object.keys(handWrittenPermissions).filter((key) => key in contract)).toEqual([]);
  });
});
