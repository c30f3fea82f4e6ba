import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import type { Account, Bpt, CreatedWebhookEndpoint, PublicCheckout, VirtualBpt } from '@rayo/shared';
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
import { expireDueCheckouts } from '../checkouts/checkouts.service.ts';

/**
 * The WooCommerce plugin (integrations/woocommerce) against this server: its own PHP files run in
 * `php`, on a stand-in of the WordPress and WooCommerce functions they call, with orders in a JSON
 * file; Rayo is the real application on a real port, and its webhook job delivers to `php -S`.
 */
const WOO = path.join(import.meta.dirname, '../../../../../integrations/woocommerce');
const HARNESS = path.join(WOO, 'tests/harness');
// Skipped where php is missing, except on CI, where a machine without it fails instead.
const skipped = spawnSync('php', ['--version']).status !== 0 && !process.env.CI;
const run = promisify(execFile);
/** Webhook deliveries go through the job queue: given a minute on a loaded machine. */
const eventually = <T>(probe: () => Promise<T | undefined>) => waitFor(probe, 60_000);

type HarnessOrder = {
  status: string;
  total: string;
  meta: Record<string, string>;
  notes: string[];
  payments: string[];
};
type PayAnswer = { result: string; redirect?: string; notices: { type: string; message: string }[] };

// Each step spawns php, and a shared machine can be slow: more time than the 30 s default.
describe.skipIf(skipped)(
  'the WooCommerce plugin (skipped when php is not installed, except on CI)',
  { timeout: 120_000 },
  () => {
    let t: TestApp;
    let rayoUrl: string;
    let shopUrl: string;
    let shop: ChildProcess;
    let stateDir: string;
    let env: NodeJS.ProcessEnv;

    async function harness<T>(...args: string[]): Promise<T> {
      const { stdout } = await run('php', [path.join(HARNESS, 'cli.php'), ...args], { env });
      return JSON.parse(stdout) as T;
    }

    beforeAll(async () => {
      const rayoPort = await freePort();
      rayoUrl = `http://127.0.0.1:${rayoPort}`;
      // GTQ at Q730,000 per bitcoin: Q73.00 is 10,000 sats.
      t = await createTestApp(
        { FIXED_RATES: 'GTQ=730000', PUBLIC_URL: rayoUrl, WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true' },
        { jobs: true, jobPollIntervalMs: 100 },
      );
      await t.app.listen({ host: '127.0.0.1', port: rayoPort });

      stateDir = mkdtempSync(path.join(tmpdir(), 'rayo-woo-'));
      const shopPort = await freePort();
      shopUrl = `http://127.0.0.1:${shopPort}`;
      env = { ...process.env, RAYO_HARNESS_STATE: path.join(stateDir, 'shop.json'), HARNESS_HOME: shopUrl };
      shop = spawn('php', ['-S', `127.0.0.1:${shopPort}`, path.join(HARNESS, 'server.php')], { env, stdio: 'ignore' });
      await waitFor(() =>
        fetch(`${shopUrl}/wp-json/rayo/v1/webhook`, { method: 'POST' }).then(
          () => true,
          () => undefined,
        ),
      );
    });
    afterAll(async () => {
      shop?.kill();
      await t?.close();
      if (stateDir) rmSync(stateDir, { recursive: true, force: true });
    });

    async function openRayo() {
      const organization = await createTestOrganization(t.db, 'Tienda Quetzal');
      const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
      const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
      const post = async <T>(url: string, payload: object) => {
        const response = await t.app.inject({ method: 'POST', url, headers: admin, payload });
        expect(response.statusCode, response.body).toBe(201);
        return response.json<T>();
      };
      const account = await post<Account>('/api/accounts', { name: 'Online' });
      const bpt = await post<Bpt>('/api/bpts', { name: 'Till', accountId: account.id, currency: 'GTQ' });
      await post<VirtualBpt>('/api/virtual-bpts', { name: 'Web shop', bptId: bpt.id });
      const { token } = await post<{ token: string }>('/api/settings/developer-tokens', { name: 'WooCommerce' });
      const endpoint = await post<CreatedWebhookEndpoint>('/api/webhooks', {
        url: `${shopUrl}/wp-json/rayo/v1/webhook`,
        events: ['checkout.paid', 'checkout.expired', 'checkout.processing', 'checkout.underpaid'],
      });
      await harness(
        'configure',
        JSON.stringify({ rayo_url: rayoUrl, developer_token: token, webhook_secret: endpoint.secret }),
      );
      return { organization, admin, endpoint };
    }

    async function placeOrder(total: string, items: { name: string; quantity: number }[] = []) {
      return (await harness<{ id: number }>('create-order', JSON.stringify({ total, currency: 'GTQ', items }))).id;
    }

    const order = (id: number) => harness<HarnessOrder>('order', String(id));

    async function deliveriesOf(organizationId: string, type: string) {
      return t.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('type', '=', type as 'checkout.paid')
        .execute();
    }

    it('passes its PHPUnit tests (signature, amounts, payloads)', async () => {
      const result = spawnSync('phpunit', ['-c', path.join(WOO, 'tests/phpunit.xml')], { encoding: 'utf8' });
      expect(result.error, 'phpunit is needed next to php (Debian package phpunit)').toBeUndefined();
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/OK \(\d+ tests/);
    });

    it('takes an order from checkout to paid, once, however often the webhook arrives', async () => {
      const rayo = await openRayo();
      const orderId = await placeOrder('73.00', [
        { name: 'Café de Huehuetenango 340 g', quantity: 2 },
        { name: 'Taza', quantity: 1 },
      ]);

      const paying = await harness<PayAnswer>('pay', String(orderId));
      expect(paying.notices).toEqual([]);
      expect(paying.result).toBe('success');
      const checkout = await t.db
        .selectFrom('checkouts')
        .selectAll()
        .where('organization_id', '=', rayo.organization.id)
        .executeTakeFirstOrThrow();
      expect(checkout).toMatchObject({
        kind: 'store',
        order_id: String(orderId),
        amount_currency: 'GTQ',
        status: 'awaiting_payment',
        description: 'Café de Huehuetenango 340 g × 2, Taza',
      });
      expect(String(checkout.amount_minor)).toBe('7300');
      expect(checkout.redirect_url).toMatch(
        new RegExp(`^${shopUrl}/checkout/order-received/${orderId}/\\?key=wc_order_`),
      );
      expect(checkout.metadata).toMatchObject({ wcOrderId: String(orderId) });
      expect(paying.redirect).toBe(`${rayoUrl}/ecommerce/checkout/${checkout.id}`);
      const awaiting = await order(orderId);
      expect(awaiting.meta).toMatchObject({ _rayo_checkout_id: checkout.id, _rayo_amount: '73' });
      // The order was already pending: the note is written by the plugin, not by a status change.
      expect(awaiting.notes).toEqual([`Awaiting payment on Rayo checkout ${checkout.id}.`]);

      // The shopper comes back and presses "Place order" again, after the access token ran out:
      // the same checkout, and the developer token still exchanges (it is not rotated away).
      const exchanges = async () =>
        (await harness<string[]>('log')).filter((line) => line.includes('refresh-access-token')).length;
      const exchangedBefore = await exchanges();
      await harness('forget-access-token');
      const again = await harness<PayAnswer>('pay', String(orderId));
      expect(again.redirect).toBe(paying.redirect);
      const checkouts = await t.db
        .selectFrom('checkouts')
        .select('id')
        .where('organization_id', '=', rayo.organization.id)
        .execute();
      expect(checkouts).toHaveLength(1);
      expect(await exchanges()).toBe(exchangedBefore + 1);
      expect((await order(orderId)).notes).toEqual(awaiting.notes);

      const hosted = await t.app.inject({ method: 'GET', url: `/api/public/checkouts/${checkout.id}` });
      const paymentRequest = hosted.json<PublicCheckout>().invoice?.paymentRequest;
      expect(paymentRequest).toBeDefined();
      const payment = await t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: { paymentRequest } });
      expect(payment.statusCode, payment.body).toBe(200);

      const paid = await eventually(async () => {
        const current = await order(orderId);
        return current.status === 'processing' ? current : undefined;
      });
      expect(paid.payments).toEqual([checkout.id]);
      expect(paid.notes).toEqual([
        ...awaiting.notes,
        'Order status changed from Pending payment to Processing.',
        `Paid 73.00 GTQ with bitcoin (lightning) on Rayo checkout ${checkout.id}.`,
      ]);
      const [delivery] = await eventually(async () => {
        const rows = await deliveriesOf(rayo.organization.id, 'checkout.paid');
        return rows[0]?.delivered_at ? rows : undefined;
      });
      expect(delivery?.last_status).toBe(200);

      // The merchant cancels the order, then the payment is redelivered (same id and body, freshly
      // signed): acknowledged, and the cancelled order is not paid again.
      const cancelled = await harness<HarnessOrder>('set-status', String(orderId), 'cancelled');
      const redeliver = await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/deliveries/${delivery?.id}/redeliver`,
        headers: rayo.admin,
      });
      expect(redeliver.statusCode).toBe(202);
      await eventually(async () => {
        const [row] = await deliveriesOf(rayo.organization.id, 'checkout.paid');
        return (row?.attempts ?? 0) >= 2 && row?.last_status === 200 ? row : undefined;
      });
      const after = await order(orderId);
      expect([after.status, after.payments, after.notes]).toEqual(['cancelled', [checkout.id], cancelled.notes]);
    });

    it('refuses a delivery it cannot verify, and leaves an order whose checkout expired payable', async () => {
      const rayo = await openRayo();
      // The merchant's "Send test" in Rayo checks the setup: signed with the right secret, acknowledged.
      const sent = await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/${rayo.endpoint.id}/test`,
        headers: rayo.admin,
      });
      expect(sent.statusCode).toBe(202);
      const [test] = await eventually(async () => {
        const rows = await deliveriesOf(rayo.organization.id, 'webhook.test');
        return rows[0]?.delivered_at ? rows : undefined;
      });
      expect(test?.last_status).toBe(200);

      const orderId = await placeOrder('10.50');
      expect((await harness<PayAnswer>('pay', String(orderId))).result).toBe('success');
      const checkoutId = (await order(orderId)).meta._rayo_checkout_id;

      const forged = JSON.stringify({
        id: 'forged',
        type: 'checkout.paid',
        createdAt: new Date().toISOString(),
        data: { checkoutId, orderId: String(orderId), amount: { currency: 'GTQ', value: '10.50' } },
      });
      const now = Math.floor(Date.now() / 1000);
      const { createHmac } = await import('node:crypto');
      const signWith = (secret: string, at: number) =>
        `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${forged}`).digest('hex')}`;
      for (const signature of [
        '',
        signWith('whsec_wrong', now),
        signWith(rayo.endpoint.secret, now - 600),
        `t=${now},v1=${'0'.repeat(64)}`,
      ]) {
        const response = await fetch(`${shopUrl}/wp-json/rayo/v1/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'rayo-signature': signature },
          body: forged,
        });
        expect(response.status, signature).toBe(401);
      }
      expect((await order(orderId)).status).toBe('pending');

      // Correctly signed but about another amount than the order's: held for the merchant, not paid.
      const tampered = forged.replace('10.50', '0.01');
      const mismatch = await fetch(`${shopUrl}/wp-json/rayo/v1/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'rayo-signature': `t=${now},v1=${createHmac('sha256', rayo.endpoint.secret).update(`${now}.${tampered}`).digest('hex')}`,
        },
        body: tampered,
      });
      expect([mismatch.status, await mismatch.json()]).toEqual([200, { result: 'amount-mismatch' }]);
      const held = await order(orderId);
      expect([held.status, held.payments]).toEqual(['on-hold', []]);

      // Another order runs out of time unpaid: Rayo's checkout.expired notes it and leaves it pending,
      // so that the shopper can pay again, on a new checkout.
      const lateId = await placeOrder('21.00');
      expect((await harness<PayAnswer>('pay', String(lateId))).result).toBe('success');
      const first = (await order(lateId)).meta._rayo_checkout_id;
      expect(await expireDueCheckouts(t.db, new Date(Date.now() + 24 * 3600_000))).toBeGreaterThanOrEqual(1);
      const expired = await eventually(async () => {
        const current = await order(lateId);
        return current.notes.length === 2 ? current : undefined;
      });
      expect([expired.status, expired.notes.at(-1)]).toEqual([
        'pending',
        `Rayo checkout ${first} expired unpaid. The order can still be paid: paying again makes a new checkout.`,
      ]);
      const again = await harness<PayAnswer>('pay', String(lateId));
      const second = await order(lateId);
      expect(second.meta._rayo_checkout_id).not.toBe(first);
      expect(again.redirect).toBe(`${rayoUrl}/ecommerce/checkout/${second.meta._rayo_checkout_id}`);
      expect(second.notes.at(-1)).toBe(`Awaiting payment on Rayo checkout ${second.meta._rayo_checkout_id}.`);
    });

    it('makes a new checkout when the order’s one expired or its total changed, and is paid on the last', async () => {
      const rayo = await openRayo();
      const orderId = await placeOrder('21.00');
      expect((await harness<PayAnswer>('pay', String(orderId))).result).toBe('success');
      const first = (await order(orderId)).meta._rayo_checkout_id;
      await expireDueCheckouts(t.db, new Date(Date.now() + 24 * 3600_000));

      expect((await harness<PayAnswer>('pay', String(orderId))).result).toBe('success');
      const second = await order(orderId);
      expect(second.meta).toMatchObject({ _rayo_attempt: '2' });
      expect(second.meta._rayo_checkout_id).not.toBe(first);

      await harness('set-total', String(orderId), '25.00');
      const third = await harness<PayAnswer>('pay', String(orderId));
      const current = await order(orderId);
      expect(current.meta).toMatchObject({ _rayo_attempt: '3', _rayo_amount: '25' });
      const rows = await t.db
        .selectFrom('checkouts')
        .select(['id', 'order_id', 'amount_minor', 'status'])
        .where('organization_id', '=', rayo.organization.id)
        .orderBy('created_at')
        .execute();
      expect(rows.map((row) => [row.order_id, String(row.amount_minor), row.status])).toEqual([
        [String(orderId), '2100', 'expired'],
        [`${orderId}-2`, '2100', 'awaiting_payment'],
        [`${orderId}-3`, '2500', 'awaiting_payment'],
      ]);
      expect(third.redirect).toBe(`${rayoUrl}/ecommerce/checkout/${current.meta._rayo_checkout_id}`);

      const hosted = await t.app.inject({
        method: 'GET',
        url: `/api/public/checkouts/${current.meta._rayo_checkout_id}`,
      });
      const paymentRequest = hosted.json<PublicCheckout>().invoice?.paymentRequest;
      const payment = await t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: { paymentRequest } });
      expect(payment.statusCode, payment.body).toBe(200);
      const paid = await eventually(async () => {
        const now = await order(orderId);
        return now.status === 'processing' ? now : undefined;
      });
      expect(paid.payments).toEqual([current.meta._rayo_checkout_id]);
    });

    it('declares HPOS and Checkout block compatibility and offers itself in the Checkout block', async () => {
      await openRayo();
      type Blocks = {
        declared: Record<string, [string, boolean]>;
        methods: { name: string; active: boolean; scripts: { handle: string; src: string }[]; data: object }[];
      };
      const blocks = await harness<Blocks>('blocks');
      expect(blocks.declared).toEqual({
        custom_order_tables: ['rayo-for-woocommerce.php', true],
        cart_checkout_blocks: ['rayo-for-woocommerce.php', true],
      });
      expect(blocks.methods).toEqual([
        {
          name: 'rayo',
          active: true,
          scripts: [
            expect.objectContaining({ src: `${shopUrl}/wp-content/plugins/rayo-for-woocommerce/assets/js/blocks.js` }),
          ],
          data: {
            title: 'Bitcoin (Lightning or on-chain)',
            description: 'You will pay on Rayo’s secure checkout page, then come back here.',
            supports: ['products'],
          },
        },
      ]);

      // The script, run on the globals WordPress gives it, registers the method under the gateway's id.
      const registered: { name: string; ariaLabel: string; canMakePayment: () => boolean }[] = [];
      const window = {
        wc: {
          wcBlocksRegistry: { registerPaymentMethod: (method: (typeof registered)[number]) => registered.push(method) },
          wcSettings: { getSetting: (key: string) => (key === 'rayo_data' ? blocks.methods[0]?.data : undefined) },
        },
        wp: {
          element: {
            createElement: (type: unknown, props: unknown, ...children: unknown[]) => ({ type, props, children }),
          },
          htmlEntities: { decodeEntities: (text: string) => text },
        },
      };
      const script = readFileSync(path.join(WOO, 'rayo-for-woocommerce/assets/js/blocks.js'), 'utf8');
      runInNewContext(script, { window });
      expect(registered.map((method) => [method.name, method.ariaLabel, method.canMakePayment()])).toEqual([
        ['rayo', 'Bitcoin (Lightning or on-chain)', true],
      ]);
    });

    it('describes a long order within Rayo’s limit, and leaves nothing behind when deleted', async () => {
      await openRayo();
      // Earlier shops' tokens are cached under their own keys, which no longer match any setting.
      await harness('forget-access-token');
      const many = Array.from({ length: 40 }, (_, index) => ({
        name: `Postal ilustrada número ${index + 1}`,
        quantity: 1,
      }));
      const paying = await harness<PayAnswer>('pay', String(await placeOrder('3.00', many)));
      expect(paying.result).toBe('success');
      const { description } = await t.db
        .selectFrom('checkouts')
        .select('description')
        .where('id', '=', paying.redirect?.split('/').pop() ?? '')
        .executeTakeFirstOrThrow();
      expect([...description]).toHaveLength(300);
      expect(description).toMatch(/^Postal ilustrada número 1, Postal ilustrada número 2, .*…$/);
      expect((await harness<string[]>('log')).at(-2)).toMatch(/refresh-access-token 200$/);
      const left = await harness<{ options: string[]; transients: string[] }>('uninstall');
      expect(left).toEqual({ options: [], transients: [] });
    });

    it('tells the shopper when Rayo refuses, and logs why', async () => {
      await openRayo();
      const orderId = await placeOrder('5.00');
      await harness(
        'configure',
        JSON.stringify({ rayo_url: rayoUrl, developer_token: 'rayo_dev_unknown', webhook_secret: 'whsec_x' }),
      );
      const refused = await harness<PayAnswer>('pay', String(orderId));
      expect(refused).toEqual({
        result: 'failure',
        notices: [
          {
            type: 'error',
            message: 'The bitcoin payment could not be started. Please try again, or choose another payment method.',
          },
        ],
      });
      expect((await harness<string[]>('log')).at(-1)).toMatch(
        /^error: Order \d+: Rayo refused the checkout \(\w+, HTTP 401\)/,
      );
    });
  },
);
