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
  it('opens enc_data (AES-128-GCM) and legacy data (AES-128-CBC) made with the client secret', () => {
    const json = JSON.stringify(request);
    expect(decryptEcwidPayload(ecwidEncryptGcm(json), SECRET, 'gcm')).toBe(json);
    expect(decryptEcwidPayload(ecwidEncryptCbc(json), SECRET, 'cbc')).toBe(json);
    // Many lengths, so that every padding length and base64 tail is crossed.
    for (let size = 0; size < 40; size++) {
      const text = 'é'.repeat(size);
      expect(decryptEcwidPayload(ecwidEncryptGcm(text), SECRET, 'gcm')).toBe(text);
      expect(decryptEcwidPayload(ecwidEncryptCbc(text), SECRET, 'cbc')).toBe(text);
    }
  });

  it('refuses a wrong key, a cut, a changed byte, the other mode, and what is not base64', () => {
    const json = JSON.stringify(request);
    const gcm = ecwidEncryptGcm(json);
    const cbc = ecwidEncryptCbc(json);
    const otherSecret = 'zzzzzzzzzzzzzzzz-another';
    expect(decryptEcwidPayload(gcm, otherSecret, 'gcm')).toBeUndefined();
    expect(decryptEcwidPayload(gcm.slice(0, -6), SECRET, 'gcm')).toBeUndefined();
    expect(decryptEcwidPayload(gcm.slice(0, 20), SECRET, 'gcm')).toBeUndefined();
    const flipped = `${gcm.slice(0, 40)}${gcm[40] === 'A' ? 'B' : 'A'}${gcm.slice(41)}`;
    expect(decryptEcwidPayload(flipped, SECRET, 'gcm')).toBeUndefined();
    expect(decryptEcwidPayload(gcm, SECRET, 'cbc')).toBeUndefined();
    expect(decryptEcwidPayload(cbc.slice(0, -3), SECRET, 'cbc')).toBeUndefined();
    // A wrong CBC key yields bad padding almost always; when it does not, the JSON does not parse.
    const wrong = decryptEcwidPayload(cbc, otherSecret, 'cbc');
    expect(wrong === undefined || parseEcwidPaymentRequest(wrong) === undefined).toBe(true);
    for (const junk of ['', '!!!', 'a', '%%%%', '====']) {
      expect(decryptEcwidPayload(junk, SECRET, 'gcm')).toBeUndefined();
      expect(decryptEcwidPayload(junk, SECRET, 'cbc')).toBeUndefined();
    }
    expect(decryptEcwidPayload(gcm, 'short', 'gcm')).toBeUndefined();
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
