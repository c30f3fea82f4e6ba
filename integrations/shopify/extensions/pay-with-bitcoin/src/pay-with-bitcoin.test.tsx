import { readFileSync } from 'node:fs';
import { renderToString } from 'preact-render-to-string';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderStatus } from './OrderStatus.tsx';
import { payLink } from './pay-link.ts';
import { ThankYou } from './ThankYou.tsx';

// Shopify runs the extension and gives it `shopify`: here a host shaped like the 2026-07 API
// (signals with `.value`), translating from the extension's own locale files as Shopify does.

type Locale = 'en' | 'es';
const messages: Record<Locale, Record<string, string>> = {
  en: JSON.parse(readFileSync(new URL('../locales/en.default.json', import.meta.url), 'utf8')),
  es: JSON.parse(readFileSync(new URL('../locales/es.json', import.meta.url), 'utf8')),
};

function host(locale: Locale, overrides: Record<string, unknown> = {}) {
  return {
    shop: { myshopifyDomain: 'tienda-1.myshopify.com' },
    settings: { value: { rayo_url: 'https://pay.example.com' } },
    cost: { totalAmount: { value: { amount: 73.5, currencyCode: 'GTQ' } } },
    i18n: {
      translate: (key: string, options: Record<string, string> = {}) =>
        (messages[locale][key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => options[name] ?? ''),
      formatCurrency: (amount: number, options: { currency?: string } = {}) =>
        new Intl.NumberFormat(locale === 'es' ? 'es-GT' : 'en-US', { style: 'currency', ...options }).format(amount),
    },
    selectedPaymentOptions: { value: [{ type: 'manualPayment', handle: 'manual-1' }] },
    orderConfirmation: { value: { order: { id: 'gid://shopify/Order/5000000001' }, isFirstOrder: true } },
    order: { value: { id: 'gid://shopify/Order/5000000002', name: '#1002' } },
    ...overrides,
  };
}

function renderWith(view: () => unknown, shopify: ReturnType<typeof host>): string {
  (globalThis as { shopify?: unknown }).shopify = shopify;
  return renderToString(view() as Parameters<typeof renderToString>[0]);
}

afterEach(() => {
  delete (globalThis as { shopify?: unknown }).shopify;
});

describe('the Pay with Bitcoin block', () => {
  it('on the Thank you page shows the amount due and links the order to Rayo, in English', () => {
    const html = renderWith(() => <ThankYou />, host('en'));
    expect(html).toContain('<s-heading>Pay with bitcoin</s-heading>');
    expect(html).toContain('Amount due: GTQ');
    expect(html).toContain('73.50');
    expect(html).toContain(
      '<s-button variant="primary" href="https://pay.example.com/api/public/shopify/pay?shop=tienda-1.myshopify.com&amp;order=5000000001">Pay with Bitcoin</s-button>',
    );
  });

  it('on the Order status page links that order, in Spanish', () => {
    const html = renderWith(() => <OrderStatus />, host('es'));
    expect(html).toContain('<s-heading>Paga con bitcoin</s-heading>');
    expect(html).toMatch(/Monto pendiente: Q\s?73[.,]50/);
    expect(html).toContain(
      'href="https://pay.example.com/api/public/shopify/pay?shop=tienda-1.myshopify.com&amp;order=5000000002"',
    );
    expect(html).toContain('>Pagar con Bitcoin</s-button>');
  });

  it('shows nothing for another payment method, a cancelled order, or without a usable Rayo address', () => {
    const card = host('en', { selectedPaymentOptions: { value: [{ type: 'creditCard', handle: 'card' }] } });
    expect(renderWith(() => <ThankYou />, card)).toBe('');
    const cancelled = host('en', {
      order: { value: { id: 'gid://shopify/Order/1', cancelledAt: '2026-11-27T10:00:00Z' } },
    });
    expect(renderWith(() => <OrderStatus />, cancelled)).toBe('');
    for (const rayoUrl of [undefined, '', 'pay.example.com', 'http://pay.example.com', 'javascript:alert(1)']) {
      expect(
        renderWith(() => <ThankYou />, host('en', { settings: { value: { rayo_url: rayoUrl } } })),
        String(rayoUrl),
      ).toBe('');
    }
  });
});

describe('payLink', () => {
  it("names the store and the order's number, keeps only Rayo's origin, and never carries an amount", () => {
    expect(payLink('https://pay.example.com/some/page?x=1', 'a.myshopify.com', 'gid://shopify/Order/42')).toBe(
      'https://pay.example.com/api/public/shopify/pay?shop=a.myshopify.com&order=42',
    );
    expect(payLink('https://pay.example.com', 'a.myshopify.com', '42')).toBe(
      'https://pay.example.com/api/public/shopify/pay?shop=a.myshopify.com&order=42',
    );
    expect(payLink('https://pay.example.com', 'a.myshopify.com', 'gid://shopify/OrderIdentity/42')).toBeUndefined();
    expect(payLink('https://user:pw@pay.example.com', 'a.myshopify.com', '42')).toBeUndefined();
  });
});
