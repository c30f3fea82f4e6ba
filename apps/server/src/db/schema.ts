import type { Language, Role } from '@rayo/shared';
import type { Generated, Insertable, Selectable } from 'kysely';

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  country_id: number | null;
  language: Language;
  time_zone: string;
  blocked: Generated<boolean>;
  bank_verified: Generated<boolean>;
  crypto_verified: Generated<boolean>;
  disbursement_address_verified: Generated<boolean>;
  conversion_address_verified: Generated<boolean>;
  kyb_verified: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface UsersTable {
  id: Generated<string>;
  organization_id: string | null;
  email: string;
  name: string;
  password_hash: string;
  role: Role;
  language: Language;
  created_at: Generated<Date>;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Generated<Date>;
}

export interface CountriesTable {
  id: Generated<number>;
  name: string;
  code: string;
}

export interface AccountsTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  internal_code: string | null;
  created_at: Generated<Date>;
}

export interface ManagerAccountsTable {
  user_id: string;
  account_id: string;
}

export interface RateLimitHitsTable {
  key: string;
  window_start: Date;
  hits: number;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  countries: CountriesTable;
  accounts: AccountsTable;
  manager_accounts: ManagerAccountsTable;
  rate_limit_hits: RateLimitHitsTable;
  server_secrets: ServerSecretsTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
