import { parseArgs } from 'node:util';
import { EmailSchema, LanguageSchema, RoleSchema, StrongPasswordSchema } from '@rayo/shared';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { findOrganizationByName } from '../modules/organizations/organizations.repo.ts';
import { createOrganization } from '../modules/organizations/organizations.service.ts';
import { createUser } from '../modules/users/users.service.ts';

const usage = `Creates a user.

  npm run user:create -- --email EMAIL --password PASSWORD --role ROLE [options]

  --role          super_admin | admin | manager | back_office
  --name          display name (default: the part of the email before @)
  --organization  organization name; created when it does not exist (not for back_office)
  --country       ISO country code of a new organization (default: US)
  --currency      the currency a new organization reports in (default: USD)
  --language      en | es (default: en)`;

const ArgsSchema = z.object({
  email: EmailSchema,
  password: StrongPasswordSchema,
  role: RoleSchema,
  name: z.string().min(1).optional(),
  organization: z.string().min(1).optional(),
  country: z.string().length(2).default('US'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default('USD'),
  language: LanguageSchema.default('en'),
});

const { values } = parseArgs({
  options: Object.fromEntries(
    ['email', 'password', 'role', 'name', 'organization', 'country', 'currency', 'language'].map((key) => [
      key,
      { type: 'string' as const },
    ]),
  ),
});
const parsed = ArgsSchema.safeParse(values);
if (!parsed.success) {
  const fields = parsed.error.issues.map((issue) => `--${issue.path.join('.')}`);
  console.error(`Missing or invalid: ${[...new Set(fields)].join(', ')}\n`);
  console.error('The password needs 8 characters with an uppercase, a lowercase, a number and a symbol.\n');
  console.error(usage);
  process.exit(2);
}
const args = parsed.data;
if ((args.role === 'back_office') === (args.organization !== undefined)) {
  console.error('Give --organization for every role except back_office, which belongs to no organization.');
  process.exit(2);
}

const database = await openDatabase(loadConfig(), () => {}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
try {
  let organizationId: string | null = null;
  if (args.organization) {
    const existing = await findOrganizationByName(database.db, args.organization);
    organizationId =
      existing?.id ??
      (
        await createOrganization(database.db, {
          name: args.organization,
          countryCode: args.country,
          currency: args.currency,
          language: args.language,
        })
      ).id;
  }
  const user = await createUser(database.db, {
    organizationId,
    email: args.email,
    name: args.name ?? args.email.split('@')[0] ?? args.email,
    password: args.password,
    role: args.role,
    language: args.language,
  });
  console.log(`Created ${user.role} ${user.email}${args.organization ? ` in ${args.organization}` : ''}.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
