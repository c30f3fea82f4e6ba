import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KnownDevice, TokenIssuer } from './tokens.ts';

/**
 * A browser that has signed in to an account before is, almost always, its owner's. It keeps a
 * signed HttpOnly cookie saying so, and sign-in counts its failures on a budget of its own
 * instead of the ones strangers share, so that strangers guessing from many addresses lock out
 * themselves and not the owner (docs/security.md). The cookie is set once the password is right
 * (MFA, if on, still follows): someone who knows the password gains nothing by skipping the
 * limits on guessing it.
 */
export const KNOWN_DEVICE_COOKIE = 'rayo_device';
const LIFE_DAYS = 365;
/** Accounts one browser remembers: a shop's shared computer, a developer's test users. */
const MAX_ACCOUNTS = 5;

/** What the cookie keeps of an account: a hash of the email under the device's id, not the email. */
function accountKey(deviceId: string, email: string): string {
  return createHash('sha256').update(`${deviceId}\n${email.toLowerCase()}`).digest('base64url').slice(0, 22);
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of request.headers.cookie?.split(';') ?? []) {
    const split = part.indexOf('=');
    if (split > 0 && part.slice(0, split).trim() === name) return part.slice(split + 1).trim();
  }
  return undefined;
}

/** The device a valid cookie on the request names, if any. */
export async function knownDeviceOf(tokens: TokenIssuer, request: FastifyRequest): Promise<KnownDevice | undefined> {
  const cookie = readCookie(request, KNOWN_DEVICE_COOKIE);
  return (cookie && (await tokens.verifyKnownDevice(cookie))) || undefined;
}

/** Whether `device` has signed in to the account of `email` before. */
export function hasSignedInAs(device: KnownDevice | undefined, email: string): device is KnownDevice {
  return device !== undefined && device.accounts.includes(accountKey(device.id, email));
}

/**
 * Sets the cookie after a right password for `email`: the device's own, with this account moved
 * to the front, or a new device's. It is sent back only to the sign-in calls (`/api/auth`).
 */
export async function rememberDevice(
  tokens: TokenIssuer,
  reply: FastifyReply,
  device: KnownDevice | undefined,
  email: string,
  secure: boolean,
): Promise<void> {
  const id = device?.id ?? randomBytes(16).toString('base64url');
  const key = accountKey(id, email);
  const accounts = [key, ...(device?.accounts ?? []).filter((known) => known !== key)].slice(0, MAX_ACCOUNTS);
  const token = await tokens.signKnownDevice({ id, accounts }, LIFE_DAYS);
  const attributes = [`Max-Age=${LIFE_DAYS * 86_400}`, 'Path=/api/auth', 'HttpOnly', 'SameSite=Strict'];
  if (secure) attributes.push('Secure');
  reply.header('set-cookie', [`${KNOWN_DEVICE_COOKIE}=${token}`, ...attributes].join('; '));
}
