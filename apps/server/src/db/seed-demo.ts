import { createHash } from 'node:crypto';
import type { Role } from '@rayo/shared';
import { insertAccount } from '../modules/accounts/accounts.repo.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import {
  listUnpaidTransactionIdsBefore,
  markTransactionsPaid,
} from '../modules/back-office/back-office-payments.repo.ts';
import { insertBpt } from '../modules/bpts/bpts.repo.ts';
import { newShareToken } from '../modules/bpts/bpts.service.ts';
import { countOrganizations, findOrganizationByName } from '../modules/organizations/organizations.repo.ts';
import { createOrganization } from '../modules/organizations/organizations.service.ts';
import { insertKybDocument } from '../modules/settings/kyb.repo.ts';
import { updateLightningAddress, updateOnchainAddress } from '../modules/settings/payout-addresses.repo.ts';
import { updatePayoutSplit } from '../modules/settings/payout-split.repo.ts';
import { insertUser, linkManagerToAccounts } from '../modules/users/users.repo.ts';
import type { Db } from './database.ts';
import { type DemoSalesOptions, MEXICO_MARKET, seedDemoSales } from './seed-demo-sales.ts';

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
 * A second, newer merchant for back office to work on: a bookshop in Mexico that has entered its
 * payout addresses and a KYB paper, none of them verified yet, and has a month of sales whose
 * fiat part is unpaid. Its admin has not entered bank details, which verification waits for.
 */
export const DEMO_BOOKSHOP = {
  name: 'Librería Aurora',
  admin: { email: 'aurora@rayo.local', name: 'Aurora Admin' },
  days: 30,
} as const;

/** Every demo user who can sign in, with the organization they see, as the start banner lists them. */
export const demoLogins: ReadonlyArray<{ email: string; role: Role; organization: string | null }> = [
  ...demoUsers.map((user) => ({
    email: user.email,
    role: user.role,
    organization: user.role === 'back_office' ? null : DEMO_ORGANIZATION,
  })),
  { email: DEMO_BOOKSHOP.admin.email, role: 'admin', organization: DEMO_BOOKSHOP.name },
];

/**
 * Seeds the demo organization, its accounts with a BPT each, one user per role and a year of
 * sales, only into an empty database. The same as `seedDemoOrganizations` followed by
 * `completeDemoSeed`, which main.ts runs apart so Rayo serves while the sales are recorded.
 */
export async function seedDemo(db: Db, sales: DemoSalesOptions = {}): Promise<boolean> {
  if (!(await seedDemoOrganizations(db))) return false;
  await completeDemoSeed(db, sales);
  return true;
}

/**
 * The demo's two organizations with their accounts, BPTs and users, in one transaction and only
 * into an empty database: quick, so the demo users can sign in as soon as Rayo is up.
 */
export async function seedDemoOrganizations(db: Db): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if ((await countOrganizations(trx)) > 0) return false;
    // One hash for every demo user: they share a password the log prints anyway, and each scrypt
    // costs tens of milliseconds of the first start.
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await seedDemoCafe(trx, passwordHash);
    await seedDemoBookshop(trx, passwordHash);
    return true;
  });
}

/**
 * Records the demo's sales and what back office did with them, the part of the seed that takes
 * time. It resumes where a stopped run left off and does nothing once everything is there, so
 * main.ts runs it on every start of a demo. Without `now`, the sales run up to the café's
 * creation, the same instant on every run.
 */
export async function completeDemoSeed(db: Db, sales: DemoSalesOptions = {}): Promise<void> {
  const cafe = await findOrganizationByName(db, DEMO_ORGANIZATION);
  const bookshop = await findOrganizationByName(db, DEMO_BOOKSHOP.name);
  if (!cafe || !bookshop) return;
  const now = sales.now ?? cafe.created_at;
  await seedDemoSales(db, cafe.id, { ...sales, now });
  await markFiatPaidUpTo(db, cafe.id, new Date(now.getTime() - FIAT_PAID_AFTER_MS));
  await seedDemoSales(db, bookshop.id, {
    ...sales,
    now,
    days: Math.min(sales.days ?? DEMO_BOOKSHOP.days, DEMO_BOOKSHOP.days),
    market: MEXICO_MARKET,
  });
}

async function seedDemoCafe(trx: Db, passwordHash: string) {
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
    const created = await insertUser(trx, {
      ...user,
      organization_id: user.role === 'back_office' ? null : organization.id,
      password_hash: passwordHash,
      language: 'en',
      email_confirmed_at: new Date(),
    });
    // The demo manager sees one account only, to show how linking narrows a manager's view.
    if (user.role === 'manager' && accounts[0]) await linkManagerToAccounts(trx, created.id, [accounts[0].id]);
  }
}

/** Back office pays the café's bank share weekly: the last week's is still to pay. */
const FIAT_PAID_AFTER_MS = 7 * 86_400_000;

/** Marks the fiat part of the sales settled before `before` paid, as back office would have. */
async function markFiatPaidUpTo(db: Db, organizationId: string, before: Date) {
  await db.transaction().execute(async (trx) => {
    const ids = await listUnpaidTransactionIdsBefore(trx, organizationId, before);
    if (ids.length > 0) await markTransactionsPaid(trx, ids);
  });
}

async function seedDemoBookshop(trx: Db, passwordHash: string) {
  const organization = await createOrganization(trx, {
    name: DEMO_BOOKSHOP.name,
    countryCode: 'MX',
    language: 'es',
    currency: 'MXN',
  });
  // Half of each sale to the bank, half on-chain: the bank half is what back office pays by hand.
  await updatePayoutSplit(trx, organization.id, { fiatBps: 5000, onchainBps: 5000, lightningBps: 0 });
  const account = await insertAccount(trx, { organizationId: organization.id, name: 'Tienda', internalCode: 'AUR' });
  // Mexico charges 16 % IVA; books are sold at the till without tips.
  await insertBpt(trx, organization.id, {
    name: 'Caja',
    channel: 'store',
    currency: 'MXN',
    account_id: account.id,
    share_token: null,
    shareable: false,
    tip_enabled: false,
    tax_bps: 1600,
  });
  const admin = await insertUser(trx, {
    ...DEMO_BOOKSHOP.admin,
    role: 'admin',
    organization_id: organization.id,
    password_hash: passwordHash,
    language: 'es',
    email_confirmed_at: new Date(),
  });
  // A regtest address, since the devnet node's wallet is on regtest.
  await updateOnchainAddress(trx, organization.id, 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080');
  await updateLightningAddress(trx, organization.id, 'pagos@libreria-aurora.example');
  const paper = Buffer.from(DEMO_KYB_PDF);
  await insertKybDocument(trx, {
    organizationId: organization.id,
    fileName: 'acta-constitutiva.pdf',
    contentType: 'application/pdf',
    bytes: paper,
    sha256: createHash('sha256').update(paper).digest('hex'),
    uploadedBy: admin.id,
  });
}

/** A one-page PDF standing in for the bookshop's articles of incorporation. */
const DEMO_KYB_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
