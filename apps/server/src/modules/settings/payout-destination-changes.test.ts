import type { CancelledDestinationChange, ErrorResponse, PayoutAddresses, PayoutPage } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLnd } from '../../../test/fakes/lnd-server.ts';
import type { FakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { type SmtpInbox, startSmtpInbox } from '../../../test/fakes/smtp-inbox.ts';
import { openPayoutShop, type PayoutShop, sellAndSettle, startLndPayoutApp } from '../../../test/payout-shop.ts';
import { bearer, createTestApp, createTestUser, openTestShop, signIn, type TestApp } from '../../../test/test-app.ts';
import { systemContext } from '../../http/request-context.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { batchLightningPayouts, type PayoutDeps } from '../payouts/payouts.service.ts';
import { findPayoutDestinationHolds } from './payout-destination-holds.service.ts';

type Headers = { authorization: string };

const HOUR_MS = 3_600_000;

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let inbox: SmtpInbox;
let t: TestApp;
let close: () => Promise<void>;
let backOffice: Headers;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  ({ lnd, lnurl, t, close } = await startLndPayoutApp({
    PAYOUT_MIN_SATS: '5000',
    SMTP_URL: inbox.url,
    PUBLIC_URL: 'https://rayo.example.com',
  }));
  const user = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  backOffice = bearer((await signIn(t.app, user.email, user.password)).accessToken);
});

afterAll(async () => {
  await close?.();
  await inbox?.close();
});

function deps(): PayoutDeps {
  return { db: t.db, config: t.config, lightning: t.runtime.deps.lightning };
}

function call(method: 'GET' | 'POST' | 'PUT', url: string, headers?: Headers, payload?: object) {
  return t.app.inject({ method, url, ...(headers ? { headers } : {}), ...(payload ? { payload } : {}) });
}

/** A shop paid to `victim`'s address since before changes were recorded, with a second admin and a sale due. */
async function openShopWithSale(name: string) {
  const shop = await openPayoutShop(t, lnurl.address(name));
  const other = await createTestUser(t.db, { role: 'admin', organizationId: shop.organization.id, language: 'es' });
  const share = await sellAndSettle(t, shop, '9.50', (hash) => lnd.settle(hash));
  return { ...shop, other, share };
}

/** The organization's payout made by a batch pass at `now`, if any. */
async function batchFor(shop: PayoutShop, now = new Date()) {
  return (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps(), now)).find(
    (payout) => payout.organizationId === shop.organization.id,
  );
}

async function changeAddress(shop: PayoutShop, address: string) {
  const since = inbox.mails.length;
  const response = await call('PUT', '/api/settings/lightning-address', shop.admin, { lightningAddress: address });
  expect(response.statusCode, response.body).toBe(200);
  return since;
}

function cancelTokenIn(text: string): string {
  const link = /https:\/\/rayo\.example\.com\/cancel-payout-change\?token=\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no cancel link in:\n${text}`);
  return new URL(link).searchParams.get('token') ?? '';
}

async function holdsOf(shop: PayoutShop) {
  const response = await call('GET', '/api/settings/payouts', shop.admin);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PayoutPage>().holds;
}

describe('a changed Lightning address (address change, then payout)', () => {
  it('gets no payout, however much is due, until back office verifies it; every admin is mailed', async () => {
    const shop = await openShopWithSale('ana');
    const since = await changeAddress(shop, lnurl.address('thief-1'));

    expect(await batchFor(shop)).toBeUndefined();
    expect(await batchFor(shop, new Date(Date.now() + 47 * HOUR_MS))).toBeUndefined();
    const [hold] = await holdsOf(shop);
    expect(hold).toMatchObject({ kind: 'lightning' });
    const releaseIn = Date.parse(hold?.releaseAt ?? '') - Date.parse(hold?.changedAt ?? '');
    expect(releaseIn).toBeGreaterThanOrEqual(48 * HOUR_MS);
    expect(releaseIn).toBeLessThan(48 * HOUR_MS + 60_000);

    const toOwner = await inbox.waitForMail(shop.user.email, { since });
    expect(toOwner.subject).toBe(`The payout Lightning address of ${shop.organization.name} was changed`);
    expect(toOwner.text).toContain(lnurl.address('ana'));
    expect(toOwner.text).toContain(lnurl.address('thief-1'));
    const toOther = await inbox.waitForMail(shop.other.email, { since });
    expect(toOther.subject).toBe(`Se cambió la dirección Lightning de pagos de ${shop.organization.name}`);
    expect(cancelTokenIn(toOther.text)).toBe(cancelTokenIn(toOwner.text));

    const verified = await call(
      'PUT',
      `/api/back-office/organization/${shop.organization.id}/verification`,
      backOffice,
      {
        field: 'disbursementAddress',
        verified: true,
      },
    );
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await holdsOf(shop)).toEqual([]);
    expect(await batchFor(shop)).toMatchObject({ destination: lnurl.address('thief-1'), amountMsat: shop.share });
  });

  it('is paid once its cool-down has passed', async () => {
    const shop = await openShopWithSale('bea');
    await changeAddress(shop, lnurl.address('bea-new'));
    const [hold] = await holdsOf(shop);
    const releaseAt = new Date(hold?.releaseAt ?? '');
    expect(await batchFor(shop, new Date(releaseAt.getTime() - 1000))).toBeUndefined();
    expect(await batchFor(shop, releaseAt)).toMatchObject({ destination: lnurl.address('bea-new') });
  });

  it('is undone by the mailed link: the previous address comes back and is paid', async () => {
    const shop = await openShopWithSale('cleo');
    const first = await changeAddress(shop, lnurl.address('thief-2'));
    const firstMail = await inbox.waitForMail(shop.user.email, { since: first });
    const second = await changeAddress(shop, lnurl.address('thief-3'));
    await inbox.waitForMail(shop.user.email, { since: second });

    // The first mail's link undoes every change since: the address the owner had comes back.
    const token = cancelTokenIn(firstMail.text);
    const cancelled = await call('POST', '/api/public/payout-destination-changes/cancel', undefined, { token });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<CancelledDestinationChange>()).toEqual({ kind: 'lightning' });
    const addresses = (await call('GET', '/api/settings/payout-addresses', shop.admin)).json<PayoutAddresses>();
    expect(addresses.lightningAddress).toBe(lnurl.address('cleo'));
    expect(await holdsOf(shop)).toEqual([]);
    expect(await batchFor(shop)).toMatchObject({ destination: lnurl.address('cleo'), amountMsat: shop.share });

    const again = await call('POST', '/api/public/payout-destination-changes/cancel', undefined, { token });
    expect([again.statusCode, again.json<ErrorResponse>().code]).toEqual([409, 'DestinationChangeNotCancellable']);
    const forged = await call('POST', '/api/public/payout-destination-changes/cancel', undefined, {
      token: `x${token}`,
    });
    expect([forged.statusCode, forged.json<ErrorResponse>().code]).toEqual([400, 'InvalidCode']);
    const audit = (await listAuditEntries(t.db, { organizationId: shop.organization.id })).find(
      (entry) => entry.action === 'settings.payout_destination_change_cancelled',
    );
    expect(audit?.after).toMatchObject({ lightning: lnurl.address('cleo'), via: 'mail', changesCancelled: 2 });
  });

  it('is undone by an admin from the payouts screen; managers may not', async () => {
    const shop = await openShopWithSale('dora');
    await changeAddress(shop, lnurl.address('thief-4'));
    const [hold] = await holdsOf(shop);
    const url = `/api/settings/payout-destination-changes/${hold?.changeId}/cancel`;
    const manager = await createTestUser(t.db, { role: 'manager', organizationId: shop.organization.id });
    const managerHeaders = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
    expect((await call('POST', url, managerHeaders)).statusCode).toBe(403);
    const other = await openTestShop(t);
    expect((await call('POST', url, other.admin)).statusCode).toBe(404);

    const cancelled = await call('POST', url, shop.admin);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await batchFor(shop)).toMatchObject({ destination: lnurl.address('dora') });
  });

  it('can no longer be cancelled once its cool-down has passed', async () => {
    const shop = await openShopWithSale('eva');
    await changeAddress(shop, lnurl.address('eva-new'));
    await t.db
      .updateTable('payout_destination_changes')
      .set({ release_at: new Date(Date.now() - 1000) })
      .where('organization_id', '=', shop.organization.id)
      .execute();
    const [change] = await t.db
      .selectFrom('payout_destination_changes')
      .select('id')
      .where('organization_id', '=', shop.organization.id)
      .execute();
    const late = await call('POST', `/api/settings/payout-destination-changes/${change?.id}/cancel`, shop.admin);
    expect([late.statusCode, late.json<ErrorResponse>().code]).toEqual([409, 'DestinationChangeNotCancellable']);
  });
});

describe('a change the admins could not be mailed about', () => {
  let unmailed: TestApp;

  beforeAll(async () => {
    // Nothing listens on port 9: every mail fails.
    unmailed = await createTestApp(
      { SMTP_URL: 'smtp://127.0.0.1:9', LNURL_ALLOW_PRIVATE_HOSTS: 'true' },
      { jobs: false },
    );
  });
  afterAll(() => unmailed?.close());

  it('is saved, and waits for back office however long', async () => {
    const shop = await openTestShop(unmailed);
    const response = await unmailed.app.inject({
      method: 'PUT',
      url: '/api/settings/onchain-address',
      headers: shop.admin,
      payload: { onchainAddress: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = (
      await unmailed.app.inject({ method: 'GET', url: '/api/settings/payouts', headers: shop.admin })
    ).json<PayoutPage>();
    expect(page.holds).toEqual([expect.objectContaining({ kind: 'onchain', releaseAt: null })]);
    const aYearOn = new Date(Date.now() + 365 * 24 * HOUR_MS);
    const held = await findPayoutDestinationHolds(unmailed.db, 'onchain', [shop.organization.id], aYearOn);
    expect(held.get(shop.organization.id)).toMatchObject({ kind: 'onchain', releaseAt: null });
  });
});
