import type { Role } from '@rayo/shared';
import { insertAccount } from '../modules/accounts/accounts.repo.ts';
import { countOrganizations } from '../modules/organizations/organizations.repo.ts';
import { createOrganization } from '../modules/organizations/organizations.service.ts';
import { linkManagerToAccounts } from '../modules/users/users.repo.ts';
import { createUser } from '../modules/users/users.service.ts';
import type { Db } from './database.ts';

export const DEMO_ORGANIZATION = 'Demo Café';
export const DEMO_PASSWORD = 'Rayo-demo-2026!';

export const demoUsers: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: 'superadmin@rayo.local', name: 'Sofía Super Admin', role: 'super_admin' },
  { email: 'admin@rayo.local', name: 'Andrés Admin', role: 'admin' },
  { email: 'manager@rayo.local', name: 'Marta Manager', role: 'manager' },
  { email: 'backoffice@rayo.local', name: 'Bruno Back Office', role: 'back_office' },
];

const demoAccounts = [
  { name: 'Main counter', internalCode: 'MAIN' },
  { name: 'Terrace', internalCode: 'TERR' },
  { name: 'Online store', internalCode: null },
];

/** Seeds the demo organization, its accounts and one user per role, only into an empty database. */
export async function seedDemo(db: Db): Promise<boolean> {
  if ((await countOrganizations(db)) > 0) return false;
  await db.transaction().execute(async (trx) => {
    const organization = await createOrganization(trx, { name: DEMO_ORGANIZATION, countryCode: 'GT', language: 'en' });
    const accounts = [];
    for (const account of demoAccounts) {
      accounts.push(await insertAccount(trx, { organizationId: organization.id, ...account }));
    }
    for (const user of demoUsers) {
      const created = await createUser(trx, {
        ...user,
        organizationId: user.role === 'back_office' ? null : organization.id,
        password: DEMO_PASSWORD,
        language: 'en',
      });
      // The demo manager sees one account only, to show how linking narrows a manager's view.
      if (user.role === 'manager' && accounts[0]) await linkManagerToAccounts(trx, created.id, [accounts[0].id]);
    }
  });
  return true;
}
