import { describe, expect, it } from 'vitest';
import { ecwidEncryptCbc as encryptCbc, ecwidEncryptGcm as encryptGcm } from '../../test/shop-standins.ts';
import { decryptEcwidPayload, parseEcwidPaymentRequest } from './ecwid-payload.ts';

// Ecwid's side, written from reference/ecommerce.md §1.2 and not from the decryptor: the key is
// the secret's first 16 characters, the field URL-safe base64 with its padding dropped.
const SECRET = 'a1B2c3D4e5F6g7H8-rest-of-the-client-secret';

const ecwidEncryptGcm = (text: string, secret = SECRET) => encryptGcm(text, secret);
const ecwidEncryptCbc = (text: string, secret = SECRET) => encryptCbc(text, secret);

const request = {
  storeId: 1003,
  returnUrl: 'https://app.ecwid.com/custompaymentapps/1003?orderId=XJ12&clientId=rayo',
  token: 'secret_store_token',
  lang: 'es',
  merchantAppSettings: { note: 'x' },
  cart: {
    currency: 'usd',
    order: {
      id: 'XJ12',
      orderNumber: 12,
      referenceTransactionId: 'transaction_65306446',
      total: 12.5,
      subtotal: 10,
      paymentStatus: 'INCOMPLETE',
      items: [{ name: 'Mug', price: 10 }],
    },
  },
};

describe('Ecwid payment requests', () => {
  it('opens enc_data (AES-128-GCM) made with the client secret', () => {
    const json = JSON.stringify(request);
    expect(decryptEcwidPayload(ecwidEncryptGcm(json), SECRET)).toBe(json);
    // Many lengths, so that every base64 tail is crossed.
    for (let size = 0; size < 40; size++) {
      const text = 'é'.repeat(size);
      expect(decryptEcwidPayload(ecwidEncryptGcm(text), SECRET)).toBe(text);
    }
  });

  it('opens no legacy CBC data, whose bytes can be changed unseen: a flipped IV bit rewrites its first block', () => {
    const json = JSON.stringify(request);
    const cbc = ecwidEncryptCbc(json);
    expect(decryptEcwidPayload(cbc, SECRET)).toBeUndefined();
    const bytes = Buffer.from(cbc.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    (bytes[12] as number) ^= 0x01;
    const flipped = bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(decryptEcwidPayload(flipped, SECRET)).toBeUndefined();
  });

  it('refuses a wrong key, a cut, a changed byte (IV, ciphertext or tag), and what is not base64', () => {
    const json = JSON.stringify(request);
    const gcm = ecwidEncryptGcm(json);
    const otherSecret = 'zzzzzzzzzzzzzzzz-another';
    expect(decryptEcwidPayload(gcm, otherSecret)).toBeUndefined();
    expect(decryptEcwidPayload(gcm.slice(0, -6), SECRET)).toBeUndefined();
    expect(decryptEcwidPayload(gcm.slice(0, 20), SECRET)).toBeUndefined();
    for (const at of [3, 40, gcm.length - 3]) {
      const flipped = `${gcm.slice(0, at)}${gcm[at] === 'A' ? 'B' : 'A'}${gcm.slice(at + 1)}`;
      expect(decryptEcwidPayload(flipped, SECRET)).toBeUndefined();
    }
    for (const junk of ['', '!!!', 'a', '%%%%', '====']) {
      expect(decryptEcwidPayload(junk, SECRET)).toBeUndefined();
    }
    expect(decryptEcwidPayload(gcm, 'short')).toBeUndefined();
  });

  it('reads the fields Rayo needs, with the total as written, and refuses a request missing one', () => {
    expect(parseEcwidPaymentRequest(JSON.stringify(request))).toEqual({
      storeId: '1003',
      returnUrl: request.returnUrl,
      token: 'secret_store_token',
      referenceTransactionId: 'transaction_65306446',
      orderNumber: '12',
      total: '12.5',
      currency: 'USD',
      lang: 'es',
    });
    const noTotal = { ...request, cart: { ...request.cart, order: { ...request.cart.order, total: undefined } } };
    expect(parseEcwidPaymentRequest(JSON.stringify(noTotal))).toBeUndefined();
    expect(parseEcwidPaymentRequest(JSON.stringify({ ...request, token: '' }))).toBeUndefined();
    expect(parseEcwidPaymentRequest('[1,2]')).toBeUndefined();
    expect(parseEcwidPaymentRequest('not json')).toBeUndefined();
  });
});
