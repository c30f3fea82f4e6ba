import type { Role } from '@rayo/shared';
import { insertAccount } from '../modules/accounts/accounts.repo.ts';
import { insertBpt } from '../modules/bpts/bpts.repo.ts';
import { newShareToken } from '../modules/bpts/bpts.service.ts';
import { countOrganizations } from '../modules/organizations/organizations.repo.ts';
import { createOrganization } from '../modules/organizations/organizations.service.ts';
import { updatePayoutSplit } from '../modules/settings/payout-split.repo.ts';
import { linkManagerToAccounts } from '../modules/users/users.repo.ts';
import { createUser } from '../modules/users/users.service.ts';
import type { Db } from './database.ts';
import { type DemoSalesOptions, seedDemoSales } from './seed-demo-sales.ts';

export const DEMO_ORGANIZATION = 'Demo Café';
export const DEMO_PASSWORD = 'Rayo-demo-2026!';

export const demoUsers: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: 'superadmin@rayo.local', name: 'Sofía Super Admin', role: 'super_admin' },
  { email: 'admin@rayo.local', name: 'Andrés Admin', role: 'admin' },
  { email: 'manager@rayo.local', name: 'Marta Manager', role: 'manager' },
  { email: 'backoffice@rayo.local', name: 'Bruno Back Office', role: 'back_office' },
];

const demoAccounts = [
  { name: 'Main counter', internalCode: 'MAIN', bpt: { name: 'Counter till', channel: 'store', shareable: true } },
  { name: 'Terrace', internalCode: 'TERR', bpt: { name: 'Terrace waiter', channel: 'store', shareable: false } },
  { name: 'Online store', internalCode: null, bpt: { name: 'Web orders', channel: 'online', shareable: false } },
];

/**
 * Seeds the demo organization, its accounts with a BPT each, one user per role and a year of
 * sales, only into an empty database.
 */
export async function seedDemo(db: Db, sales: DemoSalesOptions = {}): Promise<boolean> {
  if ((await countOrganizations(db)) > 0) return false;
  const organizationId = await db.transaction().execute(async (trx) => {
    const organization = await createOrganization(trx, {
      name: DEMO_ORGANIZATION,
      countryCode: 'GT',
      language: 'en',
      currency: 'GTQ',
    });
    // A café that converts part of each sale, so the dashboard shows fiat income and conversion fees.
    await updatePayoutSplit(trx, organization.id, { fiatBps: 4000, onchainBps: 0, lightningBps: 6000 });
    const accounts = [];
    for (const { bpt, ...account } of demoAccounts) {
      const created = await insertAccount(trx, { organizationId: organization.id, ...account });
      accounts.push(created);
      // Guatemala charges 12% IVA; tips are customary at the counter and on the terrace.
      await insertBpt(trx, organization.id, {
        ...bpt,
        account_id: created.id,
        currency: 'GTQ',
        share_token: bpt.shareable ? newShareToken() : null,
        tip_enabled: bpt.channel === 'store',
        tax_bps: 1200,
      });
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
    return organization.id;
  });
  // After the commit: settleInvoice opens a database transaction of its own for every sale.
  await seedDemoSales(db, organizationId, sales);
  return true;
}
