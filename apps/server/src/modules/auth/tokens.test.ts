import { describe, expect, it } from 'vitest';
import { type AccessClaims, createTokenIssuer } from './tokens.ts';

const SECRET = 'a-test-secret-that-is-long-enough-to-sign';
const claims: AccessClaims = {
  userId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  organizationId: null,
  role: 'admin',
  sessionEpoch: 0,
};

describe('access tokens', () => {
  it('stay refused after their expiry, however often they were verified before', async () => {
    let clock = new Date();
    const issuer = createTokenIssuer(SECRET, 60, () => clock);
    const token = await issuer.signAccessToken(claims);
    expect(await issuer.verifyAccessToken(token)).toEqual(claims);
    expect(await issuer.verifyAccessToken(token)).toEqual(claims);

    clock = new Date(clock.getTime() + 59_000);
    expect(await issuer.verifyAccessToken(token)).toEqual(claims);
    clock = new Date(clock.getTime() + 2_000);
    expect(await issuer.verifyAccessToken(token)).toBeNull();
  });

  it('are refused when changed in any way, also once the genuine one was verified', async () => {
    const issuer = createTokenIssuer(SECRET, 60);
    const token = await issuer.signAccessToken(claims);
    expect(await issuer.verifyAccessToken(token)).toEqual(claims);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // The first character: all its six bits are signature bits (the last one's lowest two are
    // padding, so changing them alone leaves the same signature bytes).
    const otherFirst = signature.startsWith('A') ? 'B' : 'A';
    expect(await issuer.verifyAccessToken(`${header}.${payload}.${otherFirst}${signature.slice(1)}`)).toBeNull();
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'super_admin' }),
    ).toString('base64url');
    expect(await issuer.verifyAccessToken(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await createTokenIssuer(`${SECRET}-other`, 60).verifyAccessToken(token)).toBeNull();
  });
});
