import { describe, expect, it } from 'vitest';
import { homePathOf, loginPathAfterLogout, safeRedirect } from './routes.ts';

describe('loginPathAfterLogout', () => {
  it('carries the full Shopify and Ecwid paths in the redirect query', () => {
    expect(loginPathAfterLogout('/ecommerce/shopify?shop=a.myshopify.com&hmac=x')).toBe(
      `/login?redirect=${encodeURIComponent('/ecommerce/shopify?shop=a.myshopify.com&hmac=x')}`,
    );
    expect(loginPathAfterLogout('/ecommerce/ecwid')).toBe('/login?redirect=%2Fecommerce%2Fecwid');
  });

  it('sends every other path to a plain /login', () => {
    for (const path of ['/', '/settings', '/ecommerce/checkout/1', '/ecommerce/shopifyx']) {
      expect(loginPathAfterLogout(path)).toBe('/login');
    }
  });
});

describe('safeRedirect', () => {
  it('accepts paths on this site only', () => {
    expect(safeRedirect('/ecommerce/shopify?shop=x')).toBe('/ecommerce/shopify?shop=x');
    for (const target of [null, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'javascript:1']) {
      expect(safeRedirect(target)).toBeNull();
    }
  });
});

describe('homePathOf', () => {
  it('is the first sidebar entry of the role', () => {
    expect(homePathOf('admin')).toBe('/');
    expect(homePathOf('manager')).toBe('/');
    expect(homePathOf('super_admin')).toBe('/');
    expect(homePathOf('back_office')).toBe('/back-office');
  });
});
