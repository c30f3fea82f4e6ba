import { createDecipheriv } from 'node:crypto';

/**
 * Opening an Ecwid payment request (reference/ecommerce.md §1.2). Ecwid POSTs the order
 * encrypted with the app's client secret in `enc_data`: AES-128-GCM, the bytes being a 16-byte
 * IV, the ciphertext and a 16-byte tag, URL-safe base64 without padding; the key is the first 16
 * characters of the client secret as raw bytes. The tag makes any changed byte fail to open.
 * Ecwid's legacy `data` field (AES-CBC, sent beside `enc_data`) carries no tag, so its bytes can
 * be changed unseen, and it is never opened. Anything that does not open (a wrong key, a cut,
 * changed or garbled field) answers `undefined`, never throws.
 */

const IV_BYTES = 16;
const TAG_BYTES = 16;
const KEY_BYTES = 16;

/** URL-safe base64 without padding, as Ecwid writes it; undefined for anything else. */
export function decodeEcwidBase64(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9_\-+/]*={0,2}$/.test(trimmed)) return undefined;
  const standard = trimmed.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  if (standard.length % 4 === 1) return undefined;
  return Buffer.from(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='), 'base64');
}

/** The AES-128 key: the first 16 characters of the client secret, as bytes. */
export function ecwidKey(clientSecret: string): Buffer | undefined {
  const key = Buffer.from(clientSecret.slice(0, KEY_BYTES), 'utf8');
  return key.length === KEY_BYTES ? key : undefined;
}

/** The decrypted text of `enc_data`, or undefined when it does not open with the secret. */
export function decryptEcwidPayload(encoded: string, clientSecret: string): string | undefined {
  const key = ecwidKey(clientSecret);
  const bytes = decodeEcwidBase64(encoded);
  if (!key || !bytes) return undefined;
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const iv = bytes.subarray(0, IV_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-128-gcm', key, iv, { authTagLength: TAG_BYTES }).setAuthTag(tag);
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    // A failed tag: the wrong secret, or bytes changed on the way.
    return undefined;
  }
}

/** What Rayo reads of an opened payment request; the rest of Ecwid's fields are ignored. */
export type EcwidPaymentRequest = {
  storeId: string;
  returnUrl: string;
  token: string;
  referenceTransactionId: string;
  orderNumber: string;
  /** The amount as Ecwid writes it, a decimal number. */
  total: string;
  currency: string;
  lang: string | null;
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * The fields of a decrypted request Rayo needs, or undefined when one is missing. `total` is kept
 * as text (a JSON number prints back as the shortest decimal that reads as it, e.g. `12.5`) and
 * is read as a decimal amount later, never computed with.
 */
export function parseEcwidPaymentRequest(json: string): EcwidPaymentRequest | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !isObject(parsed.cart) || !isObject(parsed.cart.order)) return undefined;
  const order = parsed.cart.order;
  const fields = {
    storeId: textOf(parsed.storeId),
    returnUrl: textOf(parsed.returnUrl),
    token: textOf(parsed.token),
    referenceTransactionId: textOf(order.referenceTransactionId),
    orderNumber: textOf(order.orderNumber) ?? textOf(order.id),
    total: textOf(order.total),
    currency: textOf(parsed.cart.currency),
  };
  const { storeId, returnUrl, token, referenceTransactionId, orderNumber, total, currency } = fields;
  if (!storeId || !returnUrl || !token || !referenceTransactionId || !orderNumber || !total || !currency) {
    return undefined;
  }
  return {
    storeId,
    returnUrl,
    token,
    referenceTransactionId,
    orderNumber,
    total,
    currency: currency.toUpperCase(),
    lang: textOf(parsed.lang) ?? null,
  };
}
