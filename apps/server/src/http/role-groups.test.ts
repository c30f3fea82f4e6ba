import { adminRoles, canChangeOrganization, roles } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import { permissions } from './permissions.ts';

describe("the web's role rule and the server's table", () => {
  const organizationWrites = Object.entries(permissions).filter(
    ([route, permission]) =>
      // Onboarding is the one write of an admin without an organization yet.
      !route.startsWith('GET ') &&
      route !== 'POST /api/onboard' &&
      Array.isArray(permission.who) &&
      permission.who.includes('admin'),
  );

  it('agree on who changes an organization: every write an admin may make is for admins alone', () => {
    expect(organizationWrites.length).toBeGreaterThan(20);
    for (const [route, permission] of organizationWrites) expect(permission.who, route).toEqual(adminRoles);
  });

  it.each(roles)('shows %s the controls exactly when the server lets it write', (role) => {
    expect(canChangeOrganization(role)).toBe((adminRoles as readonly string[]).includes(role));
  });
});
