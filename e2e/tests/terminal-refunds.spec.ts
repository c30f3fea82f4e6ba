import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { openSignedIn, sendJson, signUpShop } from './support.ts';

// Issue 30: the terminal's latest sales say what was refunded of each sale, signed in on the
// BPT's page and through the shared cashier link, in English and Spanish. The shop is the spec's
// own, so the demo's sales and the demo admin's language stay as they were.

const PASSWORD = 'Caja-Reembolsos-2026!';

/** A shop with a shareable terminal and three paid sales: one untouched, one refunded in part, one in full. */
async function openShop(request: APIRequestContext) {
  const { email, token } = await signUpShop(request, {
    emailPrefix: 'caja',
    emailDomain: 'reembolsos.example',
    name: 'Cafetería',
    password: PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Counter' }, token);
  const bpt = await sendJson<{ id: string; shareToken: string }>(
    request,
    '/api/bpts',
    { name: 'Front till', accountId: account.id, currency: 'GTQ', shareable: true },
    token,
  );
  const sell = async (amount: string) => {
    const invoice = await sendJson<{ id: string; paymentRequest: string; amountMsat: number }>(
      request,
      `/api/bpts/${bpt.id}/invoices`,
      { amount },
      token,
    );
    await sendJson(request, '/api/devnet/pay', { paymentRequest: invoice.paymentRequest });
    await expect
      .poll(async () => {
        const response = await request.get(`/api/invoices/${invoice.id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await response.json()) as { status: string }).status;
      })
      .toBe('settled');
    return invoice;
  };
  const refund = (saleId: string, amountMsat: number) =>
    sendJson(
      request,
      `/api/transactions/${saleId}/refunds`,
      { amountMsat, idempotencyKey: `${saleId}-${amountMsat}` },
      token,
    );
  await sell('20.00');
  const partly = await sell('30.00');
  await refund(partly.id, 1_000_000);
  const whole = await sell('15.00');
  await refund(whole.id, whole.amountMsat);
  return { email, bptId: bpt.id, shareToken: bpt.shareToken, wholeSats: Math.floor(whole.amountMsat / 1000) };
}

type Shop = Awaited<ReturnType<typeof openShop>>;

/** The refund lines under the sales' dates, newest sale first. */
async function refundLines(page: Page): Promise<string[]> {
  const lines = page.getByTestId('sale-refunded');
  await expect(lines).toHaveCount(2, { timeout: 30_000 });
  // Money and sats are written with non-breaking spaces.
  return (await lines.allTextContents()).map((line) => line.replace(/\s/g, ' '));
}

function grouped(sats: number): string {
  return sats.toLocaleString('en-US');
}

test('the latest sales show each sale refunded, in full or in part, signed in and on the cashier link', async ({
  page,
  request,
}) => {
  const shop: Shop = await openShop(request);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openSignedIn(page, shop.email, `/bpts/${shop.bptId}/terminal`, { password: PASSWORD });
  expect(await refundLines(page)).toEqual([
    `Refunded: ${grouped(shop.wholeSats)} sats (GTQ 15.00)`,
    expect.stringMatching(/^Partly refunded: 1,000 sats \(GTQ \d+\.\d\d\)$/),
  ]);
  await page.screenshot({ path: 'test-results/terminal-refunds-en-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('sale-refunded')).toHaveCount(2);
  await page.screenshot({ path: 'test-results/terminal-refunds-en-390.png', fullPage: true });

  // The same on the shared cashier link, in Spanish (chosen on this screen, as a cashier would).
  const cashier = await page
    .context()
    .browser()
    ?.newPage({ viewport: { width: 390, height: 844 } });
  if (!cashier) throw new Error('no browser');
  await cashier.goto(`/bpts/${shop.shareToken}`);
  await cashier.evaluate(() => localStorage.setItem('language', 'es'));
  await cashier.reload();
  await expect(cashier.locator('html')).toHaveAttribute('lang', 'es');
  expect(await refundLines(cashier)).toEqual([
    expect.stringMatching(/^Reembolsada: [\d.,\s]+ sats \(Q?[\s\S]*15[.,]00\)$/),
    expect.stringMatching(/^Reembolsada en parte: 1[.,\s]?000 sats \([\s\S]+\)$/),
  ]);
  await cashier.screenshot({ path: 'test-results/terminal-refunds-es-390.png', fullPage: true });
  await cashier.setViewportSize({ width: 1280, height: 900 });
  await cashier.screenshot({ path: 'test-results/terminal-refunds-es-1280.png', fullPage: true });
  await cashier.close();
});
