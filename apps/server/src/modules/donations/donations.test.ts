import { createHash } from 'node:crypto';
import { isValidAmount, LightningAddress, type LnUrlRawData, parseLnUrlPayResponse } from '@getalby/lightning-tools';
import type {
  Account,
  Bpt,
  DonationAddressAnswer,
  DonationHistory,
  DonationInvoice,
  DonationLink,
  ErrorResponse,
  PublicDonationLink,
} from '@rayo/shared';
import { webhookEvents } from '@rayo/shared/contract';
import { bech32 } from '@scure/base';
import { decode as independentDecode } from 'light-bolt11-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { freePort } from '../../ports.ts';
import { settleInvoice } from '../ledger/settlement.service.ts';

type Headers = { authorization: string };
type Json = Record<string, unknown>;

let t: TestApp;
let base: string;

async function setUpShop(name: string) {
  const organization = await createTestOrganization(t.db, name);
  const adminUser = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, adminUser.email, adminUser.password)).accessToken);
  const account = (
    await t.app.inject({ method: 'POST', url: '/api/accounts', headers: admin, payload: { name: 'Online' } })
  ).json<Account>();
  const bpt = (
    await t.app.inject({
      method: 'POST',
      url: '/api/bpts',
      headers: admin,
      payload: { name: 'Web till', accountId: account.id, currency: 'GTQ' },
    })
  ).json<Bpt>();
  const virtualBpt = await t.db
    .insertInto('virtual_bpts')
    .values({ organization_id: organization.id, bpt_id: bpt.id, name: 'Website' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const manager = async (accountIds: string[]) => {
    const user = await createTestUser(t.db, { role: 'manager', organizationId: organization.id, accountIds });
    return bearer((await signIn(t.app, user.email, user.password)).accessToken);
  };
  return { organization, admin, account, bpt, virtualBptId: virtualBpt.id, manager };
}

async function createLink(headers: Headers, payload: Json) {
  return t.app.inject({ method: 'POST', url: '/api/donation-links', headers, payload });
}

/** The URL behind an LNURL, read with @scure/base's bech32 rather than our own decoder. */
function lnurlToUrl(lnurl: string): string {
  const { prefix, words } = bech32.decode(lnurl.toLowerCase() as `${string}1${string}`, false);
  expect(prefix).toBe('lnurl');
  return new TextDecoder().decode(bech32.fromWords(words));
}

async function getJson(url: string): Promise<{ status: number; cors: string | null; body: Json }> {
  const response = await fetch(url);
  return {
    status: response.status,
    cors: response.headers.get('access-control-allow-origin'),
    body: (await response.json()) as Json,
  };
}

function callbackUrl(callback: string, params: Record<string, string>): string {
  const url = new URL(callback);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

function decodeInvoice(pr: string) {
  const decoded = independentDecode(pr);
  const section = (name: string) => {
    const found = decoded.sections.find((s) => s.name === name);
    return found && 'value' in found ? String(found.value) : undefined;
  };
  return { amountMsat: section('amount'), descriptionHash: section('description_hash'), decoded };
}

async function history(headers: Headers, query = ''): Promise<DonationHistory> {
  const response = await t.app.inject({ method: 'GET', url: `/api/donations${query}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DonationHistory>();
}

async function waitForHistory(headers: Headers, count: number): Promise<DonationHistory> {
  return waitFor(async () => {
    const page = await history(headers);
    // The page's rows and its total are two reads: wait until both show the donations.
    return page.total >= count && page.items.length >= count ? page : undefined;
  });
}

async function devnetPay(paymentRequest: string) {
  return t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: { paymentRequest } });
}

/**
 * Alby's Lightning address client, unproxied. Its address pattern wants a public domain name and
 * its URLs HTTPS, so only the scheme and host it fetches from are pointed at the test server; the
 * parsing, the metadata hash and the amount checks are its own.
 */
class LoopbackLightningAddress extends LightningAddress {
  override lnurlpUrl() {
    return `${base}/.well-known/lnurlp/${this.username}`;
  }
  override keysendUrl() {
    return `${base}/.well-known/keysend/${this.username}`;
  }
  override nostrUrl() {
    return `${base}/.well-known/nostr.json?name=${this.username}`;
  }
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: base, FIXED_RATES: 'GTQ=730000' }, { jobs: true });
  await t.app.listen({ host: '127.0.0.1', port });
});
afterAll(() => t?.close());

describe('donation links through LNURL-pay, proven with independent clients', () => {
  let shop: Awaited<ReturnType<typeof setUpShop>>;
  let link: DonationLink;

  beforeAll(async () => {
    shop = await setUpShop('Bosque Vivo');
    const response = await createLink(shop.admin, {
      virtualBptId: shop.virtualBptId,
      title: 'Plant a tree',
      description: 'Every sat goes to the nursery',
    });
    expect(response.statusCode, response.body).toBe(201);
    link = response.json<DonationLink>();
  });

  it('creates a link with a blank amount (any amount) and the default comment length', () => {
    expect(link).toMatchObject({
      title: 'Plant a tree',
      amountSats: null,
      commentAllowed: 140,
      virtualBptName: 'Website',
      currency: 'GTQ',
    });
    expect(lnurlToUrl(link.lnurl)).toBe(`${base}/api/lnurlp/${link.id}`);
    expect(link.lnurl).toBe(link.lnurl.toUpperCase());
  });

  it('answers the payRequest (LUD-06) that Alby parses, with CORS open', async () => {
    const first = await getJson(lnurlToUrl(link.lnurl));
    expect(first.status).toBe(200);
    expect(first.cors).toBe('*');
    const parsed = await parseLnUrlPayResponse(first.body as unknown as LnUrlRawData);
    expect(parsed.min).toBe(1000);
    expect(parsed.max).toBe(100_000_000_000);
    expect(parsed.fixed).toBe(false);
    expect(parsed.commentAllowed).toBe(140);
    expect(parsed.description).toBe('Plant a tree · Bosque Vivo');
    expect(parsed.metadata).toContainEqual(['text/long-desc', 'Every sat goes to the nursery']);
    expect(parsed.callback).toBe(`${base}/api/lnurlp/${link.id}/callback`);
  });

  it('issues an invoice of the asked amount committed to the sha256 of the metadata served, and records the comment', async () => {
    const first = await getJson(lnurlToUrl(link.lnurl));
    const parsed = await parseLnUrlPayResponse(first.body as unknown as LnUrlRawData);
    expect(isValidAmount({ amount: 21_000, min: parsed.min, max: parsed.max })).toBe(true);
    const answer = await getJson(callbackUrl(parsed.callback, { amount: '21000', comment: '  For the oaks 🌳 ' }));
    expect(answer.status).toBe(200);
    expect(answer.cors).toBe('*');
    expect(answer.body).toMatchObject({ routes: [], successAction: { tag: 'message' } });
    const pr = String(answer.body.pr);
    const invoice = decodeInvoice(pr);
    expect(invoice.amountMsat).toBe('21000');
    expect(invoice.descriptionHash).toBe(parsed.metadataHash);
    expect(invoice.descriptionHash).toBe(
      createHash('sha256').update(String(first.body.metadata), 'utf8').digest('hex'),
    );

    // The merchant's webhook endpoint subscribed to donations hears of it once it is paid.
    const endpoint = await t.db
      .insertInto('webhook_endpoints')
      .values({
        organization_id: shop.organization.id,
        url: 'https://shop.example/hooks',
        secret_sealed: 'unused here',
        events: ['donation.received'],
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const deliveries = () =>
      t.db
        .selectFrom('webhook_deliveries')
        .select(['type', 'payload'])
        .where('endpoint_id', '=', endpoint.id)
        .execute();

    // Nothing is in the history before the donor pays.
    expect((await history(shop.admin)).total).toBe(0);
    expect((await devnetPay(pr)).statusCode).toBe(200);
    const page = await waitForHistory(shop.admin, 1);
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      donationLinkId: link.id,
      title: 'Plant a tree',
      amountMsat: 21_000,
      currency: 'GTQ',
      comment: 'For the oaks 🌳',
    });
    // 21 sats at 730,000 GTQ minor units per BTC is 0.15 GTQ, recorded at the locked rate.
    expect(page.items[0]?.fiatAmount).toBe('0.15');
    expect(await deliveries()).toEqual([
      {
        type: 'donation.received',
        payload: expect.objectContaining({
          donationLinkId: link.id,
          amountSats: 21,
          amount: { currency: 'GTQ', value: '0.15' },
          comment: 'For the oaks 🌳',
        }),
      },
    ]);
    // The body is what the API document says a donation.received webhook carries.
    const [received] = await deliveries();
    expect(webhookEvents['donation.received'].data.safeParse(received?.payload).error).toBeUndefined();

    // The same settlement reported again changes nothing: the donation is there once.
    const stored = await t.db
      .selectFrom('invoices')
      .select(['payment_hash', 'settled_at'])
      .where('payment_request', '=', pr)
      .executeTakeFirstOrThrow();
    const again = await settleInvoice(t, 'devnet', {
      paymentHash: stored.payment_hash,
      settleIndex: 0n,
      amountPaidMsat: 21_000n,
      settledAt: stored.settled_at ?? new Date(),
    });
    expect(again).toBe(false);
    expect((await history(shop.admin)).total).toBe(1);
    expect(await deliveries()).toHaveLength(1);
    const sale = await t.db
      .selectFrom('transactions')
      .select(['source', 'virtual_bpt_id', 'total_msat'])
      .where('payment_hash', '=', stored.payment_hash)
      .execute();
    expect(sale).toEqual([{ source: 'donation', virtual_bpt_id: shop.virtualBptId, total_msat: '21000' }]);
  });

  it('refuses amounts outside min and max, and malformed ones, as LNURL errors with HTTP 200', async () => {
    const callback = `${base}/api/lnurlp/${link.id}/callback`;
    for (const amount of ['999', '100000000001', 'abc', '-5000', '1.5']) {
      const answer = await getJson(callbackUrl(callback, { amount }));
      expect(answer.status, amount).toBe(200);
      expect(answer.body.status, amount).toBe('ERROR');
      expect(typeof answer.body.reason).toBe('string');
    }
    const missing = await getJson(callback);
    expect(missing.body.status).toBe('ERROR');
  });

  it('refuses a comment longer than commentAllowed (LUD-12)', async () => {
    const callback = `${base}/api/lnurlp/${link.id}/callback`;
    const tooLong = await getJson(callbackUrl(callback, { amount: '5000', comment: 'x'.repeat(141) }));
    expect(tooLong.body).toMatchObject({ status: 'ERROR' });
    expect(String(tooLong.body.reason)).toContain('140');
    const fits = await getJson(callbackUrl(callback, { amount: '5000', comment: 'y'.repeat(140) }));
    expect(typeof fits.body.pr).toBe('string');
  });

  it('answers an unknown or malformed id with an LNURL error', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-link']) {
      for (const url of [`${base}/api/lnurlp/${id}`, `${base}/api/lnurlp/${id}/callback?amount=1000`]) {
        const answer = await getJson(url);
        expect(answer.status, url).toBe(200);
        expect(answer.body.status, url).toBe('ERROR');
      }
    }
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/public/donation-links/00000000-0000-4000-8000-000000000000',
    });
    expect(page.statusCode).toBe(404);
  });

  it('enforces a fixed amount: min equals max, any other amount refused', async () => {
    const fixed = (
      await createLink(shop.admin, {
        virtualBptId: shop.virtualBptId,
        title: 'Coffee',
        amountSats: 5000,
        commentAllowed: 0,
      })
    ).json<DonationLink>();
    expect(fixed.amountSats).toBe(5000);
    const first = await getJson(lnurlToUrl(fixed.lnurl));
    const parsed = await parseLnUrlPayResponse(first.body as unknown as LnUrlRawData);
    expect(parsed.fixed).toBe(true);
    expect(parsed.min).toBe(5_000_000);
    expect(first.body.commentAllowed).toBe(0);
    const other = await getJson(callbackUrl(parsed.callback, { amount: '4000000' }));
    expect(other.body.status).toBe('ERROR');
    const comment = await getJson(callbackUrl(parsed.callback, { amount: '5000000', comment: 'hi' }));
    expect(comment.body.status).toBe('ERROR');
    const exact = await getJson(callbackUrl(parsed.callback, { amount: '5000000' }));
    expect(decodeInvoice(String(exact.body.pr)).amountMsat).toBe('5000000');
  });

  it('gives the public page the link and merchant name only, and an invoice it can follow', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/public/donation-links/${link.id}` });
    expect(response.statusCode).toBe(200);
    const page = response.json<PublicDonationLink>();
    expect(page).toEqual({
      id: link.id,
      title: 'Plant a tree',
      description: 'Every sat goes to the nursery',
      amountSats: null,
      minSats: 1,
      maxSats: 100_000_000,
      commentAllowed: 140,
      lnurl: link.lnurl,
      merchant: { name: 'Bosque Vivo', logoUrl: null, accentColor: null },
      language: 'en',
    });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/public/donation-links/${link.id}/invoices`,
      payload: { amountSats: 1234, comment: 'From the page' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const invoice = created.json<DonationInvoice>();
    expect(invoice.amountMsat).toBe(1_234_000);
    expect(decodeInvoice(invoice.paymentRequest).descriptionHash).toBe(
      createHash('sha256')
        .update(String((await getJson(lnurlToUrl(link.lnurl))).body.metadata))
        .digest('hex'),
    );
    const followed = await t.app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}` });
    expect(followed.json<{ status: string }>().status).toBe('pending');
    const tooLong = await t.app.inject({
      method: 'POST',
      url: `/api/public/donation-links/${link.id}/invoices`,
      payload: { amountSats: 10, comment: 'z'.repeat(141) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<ErrorResponse>().code).toBe('InvalidInput');
  });

  it('limits invoices per caller on each link', async () => {
    const limited = (
      await createLink(shop.admin, { virtualBptId: shop.virtualBptId, title: 'Busy' })
    ).json<DonationLink>();
    const callback = `${base}/api/lnurlp/${limited.id}/callback?amount=1`;
    let last: Json = {};
    for (let i = 0; i < 21; i += 1) last = (await getJson(callback)).body;
    expect(last).toEqual({ status: 'ERROR', reason: 'Too many attempts, try again later' });
  });

  it('lets members read and only admins change; managers see their linked accounts only', async () => {
    const linked = await shop.manager([shop.account.id]);
    const otherAccount = (
      await t.app.inject({ method: 'POST', url: '/api/accounts', headers: shop.admin, payload: { name: 'Shop floor' } })
    ).json<Account>();
    const unlinked = await shop.manager([otherAccount.id]);
    const list = (headers: Headers) => t.app.inject({ method: 'GET', url: '/api/donation-links', headers });
    expect((await list(linked)).json<DonationLink[]>().map((l) => l.id)).toContain(link.id);
    expect((await list(unlinked)).json<DonationLink[]>()).toEqual([]);
    expect((await history(linked)).total).toBe(1);
    expect((await history(unlinked)).total).toBe(0);
    expect((await createLink(linked, { virtualBptId: shop.virtualBptId, title: 'No' })).statusCode).toBe(403);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/donation-links/${link.id}`, headers: linked });
    expect(del.statusCode).toBe(403);

    const other = await setUpShop('Other Org');
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/donation-links/${link.id}`,
      headers: other.admin,
    });
    expect(foreign.statusCode).toBe(404);
    const foreignVbpt = await createLink(other.admin, { virtualBptId: shop.virtualBptId, title: 'Steal' });
    expect(foreignVbpt.statusCode).toBe(400);
    expect((await list(other.admin)).json<DonationLink[]>()).toEqual([]);
  });

  it('pages the history, newest first', async () => {
    const paged = (
      await createLink(shop.admin, { virtualBptId: shop.virtualBptId, title: 'Paged' })
    ).json<DonationLink>();
    for (const amount of [1000, 2000, 3000]) {
      const invoice = (
        await t.app.inject({
          method: 'POST',
          url: `/api/public/donation-links/${paged.id}/invoices`,
          payload: { amountSats: amount },
        })
      ).json<DonationInvoice>();
      expect((await devnetPay(invoice.paymentRequest)).statusCode).toBe(200);
    }
    const all = await waitForHistory(shop.admin, 4);
    expect(all.total).toBe(4);
    const first = await history(shop.admin, '?page=1&pageSize=2');
    const second = await history(shop.admin, '?page=2&pageSize=2');
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(2);
    expect([...first.items, ...second.items].map((d) => d.id)).toEqual(all.items.map((d) => d.id));
    const times = all.items.map((d) => d.receivedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe('the organization Lightning address (LUD-16)', () => {
  let shop: Awaited<ReturnType<typeof setUpShop>>;
  let link: DonationLink;
  const host = () => new URL(base).host;

  beforeAll(async () => {
    shop = await setUpShop('Café Luna');
    link = (
      await createLink(shop.admin, { virtualBptId: shop.virtualBptId, title: 'Tip jar', commentAllowed: 50 })
    ).json<DonationLink>();
  });

  const setAddress = (headers: Headers, payload: Json) =>
    t.app.inject({ method: 'PUT', url: '/api/donations/lightning-address', headers, payload });

  it('refuses names outside a-z0-9-_. and a name another organization holds', async () => {
    for (const username of ['-luna', 'luna.', 'lu na', 'luna+tips', 'lúna', 'a'.repeat(65)]) {
      const response = await setAddress(shop.admin, { username, donationLinkId: link.id });
      expect(response.statusCode, username).toBe(400);
    }
    const set = await setAddress(shop.admin, { username: 'Cafe-Luna', donationLinkId: link.id });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<DonationAddressAnswer>().address).toEqual({
      username: 'cafe-luna',
      donationLinkId: link.id,
      address: `cafe-luna@${host()}`,
    });

    const other = await setUpShop('Luna Rival');
    const rivalLink = (
      await createLink(other.admin, { virtualBptId: other.virtualBptId, title: 'Rival' })
    ).json<DonationLink>();
    const taken = await setAddress(other.admin, { username: 'cafe-luna', donationLinkId: rivalLink.id });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<ErrorResponse>().code).toBe('LightningAddressTaken');
    const foreignLink = await setAddress(other.admin, { username: 'rival', donationLinkId: link.id });
    expect(foreignLink.statusCode).toBe(400);

    const manager = await shop.manager([shop.account.id]);
    expect((await setAddress(manager, { username: 'x', donationLinkId: link.id })).statusCode).toBe(403);
    const read = await t.app.inject({ method: 'GET', url: '/api/donations/lightning-address', headers: manager });
    expect(read.json<DonationAddressAnswer>().address?.username).toBe('cafe-luna');
  });

  it('resolves with Alby: metadata names the address, the invoice commits to it and has the amount', async () => {
    const address = new LoopbackLightningAddress('cafe-luna@rayo.example', { proxy: false });
    await address.fetch();
    const data = address.lnurlpData;
    if (!data) throw new Error('Alby found no payRequest');
    expect(data.identifier).toBe(`cafe-luna@${host()}`);
    expect(data.description).toBe('Tip jar · Café Luna');
    expect(data.commentAllowed).toBe(50);
    expect(data.callback).toBe(`${base}/api/lnurlp/addresses/cafe-luna/callback`);
    const invoice = await address.requestInvoice({ satoshi: 777, comment: 'Great coffee' });
    expect(invoice.satoshi).toBe(777);
    const decoded = decodeInvoice(invoice.paymentRequest);
    expect(decoded.amountMsat).toBe('777000');
    expect(decoded.descriptionHash).toBe(data.metadataHash);
    expect(invoice.successAction).toEqual({ tag: 'message', message: 'Thank you for your donation to Café Luna!' });

    expect((await devnetPay(invoice.paymentRequest)).statusCode).toBe(200);
    const page = await waitForHistory(shop.admin, 1);
    expect(page.items[0]).toMatchObject({ amountMsat: 777_000, comment: 'Great coffee', donationLinkId: link.id });
  });

  it('strips +tag and any case from the name, and answers unknown names with an LNURL error', async () => {
    const tagged = await getJson(`${base}/.well-known/lnurlp/Cafe-Luna+tips`);
    expect(tagged.cors).toBe('*');
    const metadata = JSON.parse(String(tagged.body.metadata)) as [string, string][];
    expect(metadata).toContainEqual(['text/identifier', `cafe-luna@${host()}`]);
    const unknown = await getJson(`${base}/.well-known/lnurlp/nobody`);
    expect(unknown.status).toBe(200);
    expect(unknown.body.status).toBe('ERROR');
  });

  // Issue 26: on the default devnet (no LNURL_ALLOW_PRIVATE_HOSTS) Rayo could not reach its own
  // origin, so no Lightning address could be saved as a payout destination.
  it("takes a devnet address Rayo serves itself as another organization's payout destination", async () => {
    const payee = await setUpShop('Panadería Sol');
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/lightning-address',
      headers: payee.admin,
      payload: { lightningAddress: `cafe-luna@${host()}` },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ lightningAddress: string | null }>().lightningAddress).toBe(`cafe-luna@${host()}`);
  });

  it('goes away with its donation link', async () => {
    const del = await t.app.inject({ method: 'DELETE', url: `/api/donation-links/${link.id}`, headers: shop.admin });
    expect(del.statusCode).toBe(204);
    expect((await getJson(`${base}/.well-known/lnurlp/cafe-luna`)).body.status).toBe('ERROR');
    expect((await getJson(lnurlToUrl(link.lnurl))).body.status).toBe('ERROR');
    const read = await t.app.inject({ method: 'GET', url: '/api/donations/lightning-address', headers: shop.admin });
    expect(read.json<DonationAddressAnswer>().address).toBeNull();
    // The donation received stays in the history.
    expect((await history(shop.admin)).total).toBe(1);
  });
});
