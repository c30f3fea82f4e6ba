import { LIGHTNING_ADDRESS_NAME_PATTERN } from '@rayo/shared';

/** The serving side of LNURL-pay (protocols.md §2: LUD-06, LUD-12, LUD-16). */

/** LUD-06: an image entry of the metadata holds at most this many base64 characters. */
export const MAX_METADATA_IMAGE_CHARS = 136_536;
/** LUD-09: a success message is at most 144 characters. */
export const MAX_SUCCESS_MESSAGE_CHARS = 144;

export type PayMetadata = {
  /** The one `text/plain` entry: what the payer is paying for. */
  text: string;
  longDescription?: string;
  /** LUD-16's `["text/identifier", "user@domain"]`, for a payment to a Lightning address. */
  identifier?: string;
  image?: { contentType: string; bytes: Uint8Array };
};

/**
 * The metadata string of a payRequest: a JSON array of `[type, content]` pairs. The invoice
 * commits to the SHA-256 of exactly this string, so it is built the same way for the first answer
 * and for the callback. An image goes in only when it is a PNG or JPEG within LUD-06's size.
 */
export function buildPayMetadata(metadata: PayMetadata): string {
  const entries: [string, string][] = [['text/plain', metadata.text]];
  if (metadata.longDescription) entries.push(['text/long-desc', metadata.longDescription]);
  if (metadata.identifier) entries.push(['text/identifier', metadata.identifier]);
  const image = metadata.image;
  if (image && (image.contentType === 'image/png' || image.contentType === 'image/jpeg')) {
    const base64 = Buffer.from(image.bytes).toString('base64');
    if (base64.length <= MAX_METADATA_IMAGE_CHARS) entries.push([`${image.contentType};base64`, base64]);
  }
  return JSON.stringify(entries);
}

export type AddressName = { username: string; tag: string | null };

/**
 * The user part of a Lightning address as a wallet asks for it: lower case, and for `user+tag`
 * the user alone (LUD-16). Null when it is not a name Rayo could have given out.
 */
export function parseAddressName(text: string): AddressName | null {
  const lower = text.toLowerCase();
  const plus = lower.indexOf('+');
  const username = plus === -1 ? lower : lower.slice(0, plus);
  const tag = plus === -1 ? null : lower.slice(plus + 1);
  return LIGHTNING_ADDRESS_NAME_PATTERN.test(username) ? { username, tag } : null;
}

/** A name an organization may choose for its Lightning address. */
export function isValidAddressName(text: string): boolean {
  return LIGHTNING_ADDRESS_NAME_PATTERN.test(text);
}

/**
 * A donor's comment as stored: control characters (other than line breaks) dropped and the ends
 * trimmed; null when nothing is left. Its length is counted in characters, as LUD-12's limit is.
 */
export function cleanComment(text: string | undefined): string | null {
  if (text === undefined) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  const cleaned = text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '').trim();
  return cleaned === '' ? null : cleaned;
}

export function commentLength(comment: string): number {
  return [...comment].length;
}

/** LUD-06's `amount` query parameter: a whole number of msat, or null when it is not one. */
export function parseMsatAmount(text: string | undefined): bigint | null {
  if (text === undefined || !/^\d{1,18}$/.test(text)) return null;
  return BigInt(text);
}

/** Shortens `text` to LUD-09's success-message length, ending with an ellipsis when cut. */
export function successMessage(text: string): string {
  const chars = [...text];
  if (chars.length <= MAX_SUCCESS_MESSAGE_CHARS) return text;
  return `${chars.slice(0, MAX_SUCCESS_MESSAGE_CHARS - 1).join('')}…`;
}
