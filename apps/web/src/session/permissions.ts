import type { Role } from '@rayo/shared';

/** SPEC §6: only an administrator changes settings, adds accounts and assigns BPTs; managers view. */
export function canChange(role: Role | null): boolean {
  return role === 'admin' || role === 'super_admin';
}
