import { createHash, randomBytes } from 'node:crypto';
import { type Role, RoleSchema } from '@rayo/shared';
import { errors, jwtVerify, SignJWT } from 'jose';

export type AccessClaims = { userId: string; organizationId: string | null; role: Role };

export type TokenIssuer = {
  signAccessToken(claims: AccessClaims): Promise<string>;
  /** The claims of a valid, unexpired token; null for anything else. */
  verifyAccessToken(token: string): Promise<AccessClaims | null>;
};

const ISSUER = 'rayo';

export function createTokenIssuer(secret: string, ttlSeconds: number): TokenIssuer {
  const key = new TextEncoder().encode(secret);
  return {
    signAccessToken: (claims) =>
      new SignJWT({ role: claims.role, org: claims.organizationId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    async verifyAccessToken(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        const role = RoleSchema.safeParse(payload.role);
        if (!payload.sub || !role.success) return null;
        const org = typeof payload.org === 'string' ? payload.org : null;
        return { userId: payload.sub, organizationId: org, role: role.data };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

/** Refresh tokens are 256 random bits; only their SHA-256 is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
