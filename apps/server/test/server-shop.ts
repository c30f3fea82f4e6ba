import type { Account, Bpt, Invoice, SignInResponse } from '@rayo/shared';
import type { Db } from '../src/db/database.ts';
import { createTestOrganization, createTestUser } from './test-app.ts';

export async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * A new organization with one BPT on a running server (`url`), whose admin signed in over HTTP:
 * `charge()` rings up a sale at its terminal and answers the invoice to pay; `get(path)` and
 * `post(path, body)` call as that admin.
 */
export async function openShop(url: string, db: Db) {
  const organization = await createTestOrganization(db);
  const user = await createTestUser(db, { role: 'admin', organizationId: organization.id });
  const post = (path: string, body: object, token?: string) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
  const { accessToken } = await json<SignInResponse>(
    await post('/api/auth/signin', { email: user.email, password: user.password }),
  );
  const account = await json<Account>(await post('/api/accounts', { name: 'Counter' }, accessToken));
  const bpt = await json<Bpt>(
    await post('/api/bpts', { name: 'Till', accountId: account.id, currency: 'USD' }, accessToken),
  );
  return {
    organization,
    charge: async () => json<Invoice>(await post(`/api/bpts/${bpt.id}/invoices`, { amount: '3.75' }, accessToken)),
    get: (path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${accessToken}` } }),
    post: (path: string, body: object) => post(path, body, accessToken),
  };
}
