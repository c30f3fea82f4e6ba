import { createHash, createHmac, randomBytes } from 'node:crypto';
import { type Role, RoleSchema } from '@rayo/shared';
import { errors, jwtVerify, SignJWT } from 'jose';

export type AccessClaims = {
  userId: string;
  organizationId: string | null;
  role: Role;
  /**
   * Exchanged from a developer token: a program, not a browser session. Checkout protection
   * (DESIGN §9) lets only these create store checkouts.
   */
  viaDeveloperToken?: true;
};

export type TokenIssuer = {
  signAccessToken(claims: AccessClaims): Promise<string>;
  /** The claims of a valid, unexpired token; null for anything else. */
  verifyAccessToken(token: string): Promise<AccessClaims | null>;
  /** The proof, between a right password and a right MFA code, that the password step passed. */
  signMfaChallenge(userId: string): Promise<string>;
  /** The user a valid, unexpired MFA challenge was issued to; null for anything else. */
  verifyMfaChallenge(token: string): Promise<string | null>;
};

const ISSUER = 'rayo';
const MFA_AUDIENCE = 'rayo-mfa-challenge';
const MFA_CHALLENGE_TTL = '5m';

async function verified(token: string, key: Uint8Array, audience?: string) {
  try {
    return (await jwtVerify(token, key, { issuer: ISSUER, audience, algorithms: ['HS256'] })).payload;
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}

export function createTokenIssuer(secret: string, ttlSeconds: number): TokenIssuer {
  const key = new TextEncoder().encode(secret);
  // Challenges are signed with a key of their own, derived from the secret, so that no
  // challenge can pass for an access token (or the reverse) whatever its claims say.
  const mfaKey = createHmac('sha256', secret).update('rayo mfa challenge').digest();
  return {
    signAccessToken: (claims) =>
      new SignJWT({ role: claims.role, org: claims.organizationId, ...(claims.viaDeveloperToken ? { dev: true } : {}) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    async verifyAccessToken(token) {
      const payload = await verified(token, key);
      const role = RoleSchema.safeParse(payload?.role);
      if (!payload?.sub || !role.success) return null;
      const org = typeof payload.org === 'string' ? payload.org : null;
      return {
        userId: payload.sub,
        organizationId: org,
        role: role.data,
        ...(payload.dev === true ? { viaDeveloperToken: true as const } : {}),
      };
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
