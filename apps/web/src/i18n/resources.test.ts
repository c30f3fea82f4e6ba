import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function textOf(tree: object, key: string): string {
  return String(key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree));
}

describe('translations', () => {
  it('English and Spanish have the same keys', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('no text is empty', () => {
    for (const tree of [en, es]) {
      expect(JSON.stringify(tree)).not.toMatch(/:\s*""/);
    }
  });

  it('Spanish calls the bill "Subtotal" everywhere, keeping "cuenta" for accounts', () => {
    const english = new Map(keys(en).map((key) => [key, textOf(en, key)]));
    const billKeys = [...english].filter(([, text]) => /\bbill\b/i.test(text)).map(([key]) => key);
    expect(billKeys.length).toBeGreaterThan(3);
    for (const key of billKeys) {
      expect(textOf(es, key), key).toMatch(/subtotal/i);
      expect(textOf(es, key), key).not.toMatch(/cuenta/i);
    }
  });

  it('English uses the words of SPEC §2 and §8', () => {
    expect(en.notFound).toEqual({ title: "This page doesn't exist", home: 'Go to home page' });
    expect(en.nav.help).toBe('Need help? Contact Us');
    expect(en.nav.emailCopied).toBe('Email copied to clipboard.');
    expect(en.errors.network).toBe('Network error: Please reload the page');
    expect(en.errors.wrongAuth).toBe('Invalid email or password');
    expect(en.ecwid.heading).toBe('The easiest and fastest way to receive bitcoin payments');
  });

  it('the BPT screens and the terminal say what SPEC §8 says', () => {
    expect(en.errors).toMatchObject({
      organizationDisabled: 'Your organization is disabled, missing info in Settings',
      invoiceFailed: 'Error creating invoice.',
      maintenance: 'Under maintenance, please try again later.',
      invalidLnurlWithdraw: 'Invalid Lnurl-withdraw code',
      nfcRead: 'NFC Read Error',
      bptsFailed: 'Error getting the BPTs',
      accountRequired: 'A BPT needs at least one account first.',
    });
  });
});
