import { createHash, createHmac, randomBytes } from 'node:crypto';
import { type DeveloperTokenScope, DeveloperTokenScopeSchema, type Role, RoleSchema } from '@rayo/shared';
import { errors, jwtVerify, SignJWT } from 'jose';

export type AccessClaims = {
  userId: string;
  organizationId: string | null;
  role: Role;
  /** The user's `session_epoch` when the token was signed: a password reset or change moves it on. */
  sessionEpoch: number;
  /**
   * Exchanged from a developer token, with what it may do: a program, not a browser session.
   * The permission table limits each scope to its routes, and checkout protection (DESIGN §9)
   * lets only these create store checkouts.
   */
  developerScope?: DeveloperTokenScope;
};

export type TokenIssuer = {
  signAccessToken(claims: AccessClaims): Promise<string>;
  /** The claims of a valid, unexpired token; null for anything else. */
  verifyAccessToken(token: string): Promise<AccessClaims | null>;
  /** The proof, between a right password and a right MFA code, that the password step passed. */
  signMfaChallenge(userId: string): Promise<string>;
  /** The user a valid, unexpired MFA challenge was issued to; null for anything else. */
  verifyMfaChallenge(token: string): Promise<string | null>;
  /** The proof kept in a browser that it signed in to these accounts (`known-device.ts`). */
  signKnownDevice(device: KnownDevice, lifeDays: number): Promise<string>;
  /** The device a valid, unexpired proof names; null for anything else. */
  verifyKnownDevice(token: string): Promise<KnownDevice | null>;
};

/** A browser that has signed in: its random id, and a key per account it signed in to. */
export type KnownDevice = { id: string; accounts: string[] };

const ISSUER = 'rayo';
const MFA_AUDIENCE = 'rayo-mfa-challenge';
const MFA_CHALLENGE_TTL = '5m';
const DEVICE_AUDIENCE = 'rayo-known-device';

/**
 * Access tokens whose signature was checked, up to this many: a till sends the same token with
 * every charge, and checking it again cost more than the rest of the access check.
 */
const MAX_VERIFIED_TOKENS = 10_000;

async function verified(token: string, key: Uint8Array, audience?: string, currentDate?: Date) {
  try {
    return (await jwtVerify(token, key, { issuer: ISSUER, audience, algorithms: ['HS256'], currentDate })).payload;
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}

/**
 * The scope a token's `dev` claim names; `true` is an access token issued before scopes existed,
 * which gets the narrowest.
 */
function developerScopeOf(claim: unknown): { developerScope?: DeveloperTokenScope } {
  if (claim === true) return { developerScope: 'checkouts' };
  const scope = DeveloperTokenScopeSchema.safeParse(claim);
  return scope.success ? { developerScope: scope.data } : {};
}

/** `now` is the clock expiry is judged by; tests move it. */
export function createTokenIssuer(secret: string, ttlSeconds: number, now: () => Date = () => new Date()): TokenIssuer {
  const key = new TextEncoder().encode(secret);
  // A token is a fixed string that the signature makes valid until its `exp` and nothing makes
  // valid again, so a verified one is remembered by its exact text until then. Who holds it is
  // still checked on every request (http/access.ts): a deleted user's token opens nothing.
  const verifiedAccess = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  // Challenges are signed with a key of their own, derived from the secret, so that no
  // challenge can pass for an access token (or the reverse) whatever its claims say.
  const mfaKey = createHmac('sha256', secret).update('rayo mfa challenge').digest();
  const deviceKey = createHmac('sha256', secret).update('rayo known device').digest();
  return {
    signAccessToken: (claims) =>
      new SignJWT({
        role: claims.role,
        org: claims.organizationId,
        se: claims.sessionEpoch,
        ...(claims.developerScope ? { dev: claims.developerScope } : {}),
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    async verifyAccessToken(token) {
      const at = now();
      const known = verifiedAccess.get(token);
      if (known && at.getTime() < known.expiresAtMs) return known.claims;
      verifiedAccess.delete(token);
      const payload = await verified(token, key, undefined, at);
      const role = RoleSchema.safeParse(payload?.role);
      if (!payload?.sub || !role.success || payload.exp === undefined) return null;
      const org = typeof payload.org === 'string' ? payload.org : null;
      const claims: AccessClaims = {
        userId: payload.sub,
        organizationId: org,
        role: role.data,
        // Tokens signed before epochs existed belong to the first.
        sessionEpoch: typeof payload.se === 'number' ? payload.se : 0,
        ...developerScopeOf(payload.dev),
      };
      // The oldest entry makes room: Map keeps insertion order.
      if (verifiedAccess.size >= MAX_VERIFIED_TOKENS)
        verifiedAccess.delete(verifiedAccess.keys().next().value as string);
      verifiedAccess.set(token, { claims, expiresAtMs: payload.exp * 1000 });
      return claims;
    },
    signMfaChallenge: (userId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(MFA_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(MFA_CHALLENGE_TTL)
        .sign(mfaKey),
    async verifyMfaChallenge(token) {
      return (await verified(token, mfaKey, MFA_AUDIENCE))?.sub ?? null;
    },
    signKnownDevice: (device, lifeDays) =>
      new SignJWT({ acc: device.accounts })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(device.id)
        .setIssuer(ISSUER)
        .setAudience(DEVICE_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${lifeDays}d`)
        .sign(deviceKey),
    async verifyKnownDevice(token) {
      const payload = await verified(token, deviceKey, DEVICE_AUDIENCE, now());
      const accounts = payload?.acc;
      if (!payload?.sub || !Array.isArray(accounts) || !accounts.every((key) => typeof key === 'string')) return null;
      return { id: payload.sub, accounts };
    },
  };
}

/** Refresh tokens are 256 random bits; only their SHA-256 is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return sha256Hex(token);
}

/** How high-entropy secrets we hand out (refresh tokens, emailed codes) are stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
