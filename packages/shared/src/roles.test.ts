import { describe, expect, it } from 'vitest';
import { RoleSchema } from './auth.ts';
import { homeEntryOf, isRole, navByRole, navEntries, navHighlightOf, roles } from './roles.ts';

describe('navByRole (SPEC §6)', () => {
  it('gives each role exactly the sidebar entries of the SPEC table, in sidebar order', () => {
    expect(navByRole).toEqual({
      super_admin: ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers', 'back-office'],
      admin: ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers'],
      back_office: ['back-office', 'settings'],
      manager: ['index', 'settings', 'accounts', 'bpts', 'integrations'],
    });
  });

  it('covers every role and keeps the order of navEntries after the home entry', () => {
    expect(Object.keys(navByRole).sort()).toEqual([...roles].sort());
    for (const role of roles) {
      const [, ...rest] = navByRole[role];
      expect(rest).toEqual(navEntries.filter((entry) => rest.includes(entry)));
    }
  });

  it('lands each role on its first sidebar entry', () => {
    expect(homeEntryOf('super_admin')).toBe('index');
    expect(homeEntryOf('admin')).toBe('index');
    expect(homeEntryOf('manager')).toBe('index');
    expect(homeEntryOf('back_office')).toBe('back-office');
  });
});

describe('navHighlightOf (SPEC §2)', () => {
  it('highlights the parent entry of detail routes', () => {
    expect(navHighlightOf).toEqual({
      'back-office-id-infos': 'back-office',
      'back-office-id-transactions': 'back-office',
      'account-links': 'accounts',
      'payment-link-vbpt': 'integrations',
    });
  });
});

describe('isRole and RoleSchema', () => {
  it('accept the four roles only, and agree', () => {
    for (const role of roles) {
      expect(isRole(role)).toBe(true);
      expect(RoleSchema.parse(role)).toBe(role);
    }
    for (const value of ['owner', 'Admin', ' admin', '', null, undefined, 1, ['admin']]) {
      expect(isRole(value)).toBe(false);
      expect(RoleSchema.safeParse(value).success).toBe(false);
    }
  });
});
