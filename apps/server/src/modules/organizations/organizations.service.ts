import {
  AppError,
  type CurrentOrganization,
  type Language,
  type OnboardRequest,
  type OnboardResponse,
} from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { Organization } from '../../db/schema.ts';
import { defaultTimeZoneOf } from '../../domain/time-zone.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { audit } from '../audit/audit.service.ts';
import type { TokenIssuer } from '../auth/tokens.ts';
import { findCountry } from '../countries/countries.service.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
import { requireFiatCurrency } from '../rates/rates.service.ts';
import { assignUserOrganization, findUserById } from '../users/users.service.ts';
import * as organizations from './organizations.repo.ts';

export async function createOrganization(
  db: Db,
  input: { name: string; countryCode: string; language: Language; currency?: string },
): Promise<Organization> {
  const country = await findCountry(db, input.countryCode);
  if (!country) throw new AppError('InvalidInput', `Unknown country code ${input.countryCode}`);
  const organization = await organizations.insertOrganization(db, {
    name: input.name,
    country_id: country.id,
    language: input.language,
    time_zone: defaultTimeZoneOf(country.code),
    ...(input.currency && { currency: input.currency }),
  });
  // Back office verifies every new organization; pass the transaction that creates it.
  await notifyBackOffice(db, {
    organizationId: organization.id,
    kind: 'organization.created',
    payload: { name: organization.name, countryCode: country.code, currency: organization.currency },
  });
  return organization;
}

/**
 * The signed-up admin's first step: their organization, with its country (which sets the time
 * zone), language and currency. The caller's access token names no organization, so a new one
 * comes back; the refresh token needs no change, since it reads the user afresh.
 */
export async function onboardOrganization(
  ctx: RequestContext,
  deps: { db: Db; tokens: TokenIssuer },
  request: OnboardRequest,
): Promise<OnboardResponse> {
  const user = await findUserById(deps.db, ctx.userId);
  if (!user) throw new AppError('Unauthorized', 'The user no longer exists');
  if (user.organization_id) throw new AppError('AlreadyOnboarded', 'Your organization is already set up');
  await requireFiatCurrency(deps.db, request.currency);
  const organization = await deps.db.transaction().execute(async (trx) => {
    const created = await createOrganization(trx, { ...request });
    // A second, concurrent onboarding finds the user taken and leaves no organization behind.
    if (!(await assignUserOrganization(trx, user.id, created.id, request.language))) {
      throw new AppError('AlreadyOnboarded', 'Your organization is already set up');
    }
    await audit(ctx, trx, 'organization.onboarded', {
      organizationId: created.id,
      target: `organization:${created.id}`,
      after: {
        name: created.name,
        countryCode: request.countryCode,
        language: created.language,
        currency: created.currency,
      },
    });
    return created;
  });
  const accessToken = await deps.tokens.signAccessToken({
    userId: user.id,
    organizationId: organization.id,
    role: user.role,
    sessionEpoch: user.session_epoch,
  });
  return { organizationId: organization.id, accessToken };
}

export async function findOrganizationById(db: Db, id: string): Promise<Organization | undefined> {
  return organizations.findOrganizationById(db, id);
}

/** The organization as its users' screens show it: name, country, time zone, currency and language. */
export async function findCurrentOrganization(db: Db, id: string): Promise<CurrentOrganization | undefined> {
  return organizations.findCurrentOrganization(db, id);
}
