import { createHash } from 'node:crypto';
import {
  AppError,
  type Branding,
  LOGO_TYPES,
  type LogoType,
  type PublicBranding,
  type SetAccentColorRequest,
} from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { sniffFileType } from '../../domain/file-type.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Upload } from '../../http/upload.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import {
  type BrandingRow,
  deleteLogo,
  findBrandingRow,
  findLogo,
  updateAccentColor,
  upsertLogo,
} from './branding.repo.ts';

/**
 * Where anyone may fetch an organization's logo. The address names the logo's hash, so a new
 * logo gets a new address and the old one can be cached for good.
 */
export function logoUrl(organizationId: string, sha256: string): string {
  return `/api/public/organizations/${organizationId}/logo?v=${sha256.slice(0, 16)}`;
}

function toBranding(organizationId: string, row: BrandingRow): Branding {
  return {
    accentColor: row.accent_color,
    logo:
      row.logo_sha256 && row.logo_content_type && row.logo_size !== null
        ? {
            url: logoUrl(organizationId, row.logo_sha256),
            contentType: row.logo_content_type as LogoType,
            size: row.logo_size,
            sha256: row.logo_sha256,
          }
        : null,
  };
}

/** The audit log's view of the branding: the colour and which logo, never the image. */
function auditView(row: BrandingRow) {
  return {
    accentColor: row.accent_color,
    logo: row.logo_sha256 ? { sha256: row.logo_sha256, size: row.logo_size, contentType: row.logo_content_type } : null,
  };
}

async function readBranding(db: Db, organizationId: string, lock = false): Promise<BrandingRow> {
  const row = await findBrandingRow(db, organizationId, { lock });
  if (!row) throw new AppError('NotFound', 'Organization not found');
  return row;
}

export async function getBranding(db: Db, caller: AccessClaims): Promise<Branding> {
  const organizationId = organizationOf(caller);
  return toBranding(organizationId, await readBranding(db, organizationId));
}

/** The colour and logo a public page of the organization shows. */
export async function getPublicBranding(db: Db, organizationId: string): Promise<PublicBranding> {
  const branding = toBranding(organizationId, await readBranding(db, organizationId));
  return { accentColor: branding.accentColor, logoUrl: branding.logo?.url ?? null };
}

/**
 * Applies one branding change, with its audit entry in the same transaction. The row is locked
 * so that the entry's before is what the change replaced.
 */
async function changeBranding(
  ctx: RequestContext,
  db: Db,
  change: (trx: Db, organizationId: string) => Promise<void>,
): Promise<Branding> {
  const organizationId = organizationOf(ctx);
  return db.transaction().execute(async (trx) => {
    const before = await readBranding(trx, organizationId, true);
    await change(trx, organizationId);
    const after = await readBranding(trx, organizationId);
    await audit(ctx, trx, 'settings.branding_changed', {
      organizationId,
      target: `organization:${organizationId}`,
      before: auditView(before),
      after: auditView(after),
    });
    return toBranding(organizationId, after);
  });
}

export async function setAccentColor(ctx: RequestContext, db: Db, request: SetAccentColorRequest): Promise<Branding> {
  const color = request.accentColor?.toLowerCase() ?? null;
  return changeBranding(ctx, db, (trx, organizationId) => updateAccentColor(trx, organizationId, color));
}

/**
 * Replaces the logo. Only PNG and JPEG, read from the bytes: an SVG is a document that can
 * carry script and external references, and anyone may open the logo's address.
 */
export async function uploadLogo(ctx: RequestContext, db: Db, upload: Upload): Promise<Branding> {
  const contentType = sniffFileType(upload.bytes);
  if (contentType === 'image/svg+xml') {
    throw new AppError('InvalidFileType', 'SVG logos are not accepted; upload the logo as PNG or JPEG');
  }
  if (!(LOGO_TYPES as readonly string[]).includes(contentType ?? '')) {
    throw new AppError('InvalidFileType', 'The logo must be a PNG or JPEG image');
  }
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
  return changeBranding(ctx, db, (trx, organizationId) =>
    upsertLogo(trx, { organizationId, contentType: contentType as LogoType, bytes: upload.bytes, sha256 }),
  );
}

export async function removeLogo(ctx: RequestContext, db: Db): Promise<Branding> {
  return changeBranding(ctx, db, (trx, organizationId) => deleteLogo(trx, organizationId));
}

/** The logo anyone may fetch; an organization without one answers 404. */
/** The logo's bytes (PNG or JPEG), for documents that print it; null without a logo. */
export async function getLogoImage(db: Db, organizationId: string): Promise<Buffer | null> {
  return (await findLogo(db, organizationId))?.bytes ?? null;
}

export async function getPublicLogo(db: Db, organizationId: string) {
  const logo = await findLogo(db, organizationId);
  if (!logo) throw new AppError('NotFound', 'This organization has no logo');
  return logo;
}

/** The organization's logo with its content type, if it has one. */
export async function findOrganizationLogo(db: Db, organizationId: string) {
  return findLogo(db, organizationId);
}
