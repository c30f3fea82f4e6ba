import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestOrganization, type TestDatabase } from '../../../test/test-app.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { enqueueWebhookEvent } from './webhooks.service.ts';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url, 2);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

async function addEndpoint(organizationId: string, events: string[], active = true) {
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      organization_id: organizationId,
      url: 'https://shop.example/hooks',
      secret_sealed: 'sealed',
      events: events as never,
      active,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function jobsFor(deliveryIds: string[]) {
  if (deliveryIds.length === 0) return [];
  const { rows } = await sql<{ key: string; task_identifier: string; payload: { deliveryId: string } }>`
    select j.key, t.identifier as task_identifier, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where j.key = any(${deliveryIds})`.execute(
    db,
  );
  return rows;
}

describe('enqueueWebhookEvent', () => {
  it('records one delivery per active subscribed endpoint, each with its job keyed by the delivery', async () => {
    const organization = await createTestOrganization(db);
    const other = await createTestOrganization(db);
    const paid = await addEndpoint(organization.id, ['checkout.paid', 'checkout.expired']);
    await addEndpoint(organization.id, ['donation.received']);
    await addEndpoint(organization.id, ['checkout.paid'], false);
    await addEndpoint(other.id, ['checkout.paid']);

    await db
      .transaction()
      .execute((trx) =>
        enqueueWebhookEvent(trx, organization.id, 'checkout.paid', { checkoutId: 'c1', amountSats: 21 }),
      );

    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('organization_id', 'in', [organization.id, other.id])
      .execute();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      endpoint_id: paid,
      type: 'checkout.paid',
      payload: { checkoutId: 'c1', amountSats: 21 },
      attempts: 0,
      delivered_at: null,
    });
    const id = deliveries[0]?.id as string;
    expect(await jobsFor([id])).toEqual([
      { key: id, task_identifier: 'deliver-webhook', payload: { deliveryId: id, redeliver: false } },
    ]);
  });

  it('leaves neither delivery nor job when the transaction rolls back', async () => {
    const organization = await createTestOrganization(db);
    await addEndpoint(organization.id, ['checkout.expired']);
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueueWebhookEvent(trx, organization.id, 'checkout.expired', { checkoutId: 'c2' });
        throw new Error('the settlement failed');
      }),
    ).rejects.toThrow('the settlement failed');
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('organization_id', '=', organization.id)
      .execute();
    expect(deliveries).toEqual([]);
    const { rows } = await sql<{ count: string }>`
      select count(*) from graphile_worker._private_jobs j where j.payload->>'deliveryId' is not null
        and not exists (select 1 from webhook_deliveries d where d.id::text = j.payload->>'deliveryId')`.execute(db);
    expect(rows[0]?.count).toBe('0');
  });
});
