import type { Selectable } from 'kysely';
import { type Db, isUniqueViolation } from '../../db/database.ts';
import { onAccountLinkedTo } from '../../db/manager-scope.ts';
import type { DonationAddressesTable, DonationLinksTable } from '../../db/schema.ts';

export type DonationLinkRow = Selectable<DonationLinksTable>;
export type DonationLinkListRow = DonationLinkRow & { virtual_bpt_name: string; currency: string };
export type DonationAddressRow = Selectable<DonationAddressesTable>;

function selectLinks(db: Db) {
  return db
    .selectFrom('donation_links')
    .innerJoin('virtual_bpts', 'virtual_bpts.id', 'donation_links.virtual_bpt_id')
    .innerJoin('bpts', 'bpts.id', 'virtual_bpts.bpt_id')
    .selectAll('donation_links')
    .select(['virtual_bpts.name as virtual_bpt_name', 'bpts.currency'])
    .where('donation_links.deleted_at', 'is', null);
}

/** The organization's live donation links, or only those selling for accounts linked to `managerUserId`. */
export async function listDonationLinks(
  db: Db,
  organizationId: string,
  managerUserId?: string,
): Promise<DonationLinkListRow[]> {
  let query = selectLinks(db).where('donation_links.organization_id', '=', organizationId);
  if (managerUserId) {
    query = query.where(onAccountLinkedTo(managerUserId, 'bpts.account_id'));
  }
  return query.orderBy('donation_links.created_at', 'desc').orderBy('donation_links.id').execute();
}

export async function findDonationLinkInOrganization(
  db: Db,
  organizationId: string,
  id: string,
): Promise<DonationLinkListRow | undefined> {
  return selectLinks(db)
    .where('donation_links.organization_id', '=', organizationId)
    .where('donation_links.id', '=', id)
    .executeTakeFirst();
}

/** A live link by its public id, whichever organization it belongs to: the id is all a donor has. */
export async function findPublicDonationLink(db: Db, id: string): Promise<DonationLinkRow | undefined> {
  return db
    .selectFrom('donation_links')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export type NewDonationLink = {
  organization_id: string;
  virtual_bpt_id: string;
  title: string;
  description: string;
  amount_msat: bigint | null;
  comment_allowed: number;
};

export async function insertDonationLink(db: Db, link: NewDonationLink): Promise<string> {
  const row = await db.insertInto('donation_links').values(link).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The link stops taking donations, and the Lightning address that paid it goes with it. */
export async function softDeleteDonationLink(db: Db, organizationId: string, id: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('donation_links')
      .set({ deleted_at: now })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await trx
      .deleteFrom('donation_addresses')
      .where('organization_id', '=', organizationId)
      .where('donation_link_id', '=', id)
      .execute();
    return true;
  });
}

export type NewDonation = {
  organization_id: string;
  donation_link_id: string;
  invoice_id: string;
  amount_msat: bigint;
  comment: string | null;
};

export async function insertDonation(db: Db, donation: NewDonation): Promise<void> {
  await db.insertInto('donations').values(donation).execute();
}

export type ReceivedDonation = {
  id: string;
  donation_link_id: string;
  amount_msat: string;
  comment: string | null;
  title: string;
};

/** Called inside the settlement's transaction: the donation of this invoice has arrived. */
export async function markDonationReceived(
  db: Db,
  invoiceId: string,
  receivedAt: Date,
): Promise<ReceivedDonation | undefined> {
  const donation = await db
    .updateTable('donations')
    .set({ received_at: receivedAt })
    .where('invoice_id', '=', invoiceId)
    .where('received_at', 'is', null)
    .returning(['id', 'donation_link_id', 'amount_msat', 'comment'])
    .executeTakeFirst();
  if (!donation) return undefined;
  const link = await db
    .selectFrom('donation_links')
    .select('title')
    .where('id', '=', donation.donation_link_id)
    .executeTakeFirstOrThrow();
  return { ...donation, title: link.title };
}

export type ReceivedDonationRow = {
  id: string;
  donation_link_id: string;
  title: string;
  received_at: Date;
  amount_msat: string;
  comment: string | null;
  currency: string;
  total_minor: string;
};

function receivedDonations(db: Db, organizationId: string, managerUserId?: string) {
  let query = db
    .selectFrom('donations')
    .innerJoin('invoices', 'invoices.id', 'donations.invoice_id')
    .innerJoin('donation_links', 'donation_links.id', 'donations.donation_link_id')
    .where('donations.organization_id', '=', organizationId)
    .where('donations.received_at', 'is not', null);
  if (managerUserId) {
    query = query.where(onAccountLinkedTo(managerUserId, 'invoices.account_id'));
  }
  return query;
}

/** Received donations, newest first, one page of them, and how many there are in all. */
export async function listReceivedDonations(
  db: Db,
  organizationId: string,
  page: { limit: number; offset: number },
  managerUserId?: string,
): Promise<{ rows: ReceivedDonationRow[]; total: number }> {
  const rows = await receivedDonations(db, organizationId, managerUserId)
    .select([
      'donations.id',
      'donations.donation_link_id',
      'donation_links.title',
      'donations.amount_msat',
      'donations.comment',
      'invoices.currency',
      'invoices.total_minor',
    ])
    .select((eb) => eb.ref('donations.received_at').$castTo<Date>().as('received_at'))
    .orderBy('donations.received_at', 'desc')
    .orderBy('donations.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await receivedDonations(db, organizationId, managerUserId)
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.total) };
}

export async function findDonationAddress(db: Db, organizationId: string): Promise<DonationAddressRow | undefined> {
  return db
    .selectFrom('donation_addresses')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function findDonationAddressByUsername(db: Db, username: string): Promise<DonationAddressRow | undefined> {
  return db.selectFrom('donation_addresses').selectAll().where('username', '=', username).executeTakeFirst();
}

/** Sets the organization's name and link; false when another organization holds the name. */
export async function upsertDonationAddress(
  db: Db,
  organizationId: string,
  username: string,
  donationLinkId: string,
  now: Date,
): Promise<boolean> {
  const row = await db
    .insertInto('donation_addresses')
    .values({ organization_id: organizationId, username, donation_link_id: donationLinkId, updated_at: now })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({ username, donation_link_id: donationLinkId, updated_at: now }),
    )
    .returning('organization_id')
    .executeTakeFirst()
    .catch((error: unknown) => {
      // The name is another organization's (the unique index on username).
      if (isUniqueViolation(error)) return undefined;
      throw error;
    });
  return row !== undefined;
}

export async function deleteDonationAddress(db: Db, organizationId: string): Promise<void> {
  await db.deleteFrom('donation_addresses').where('organization_id', '=', organizationId).execute();
}
