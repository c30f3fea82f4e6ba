import type { AddressInfo } from 'node:net';
import { type ErrorCode, isErrorCode } from '@rayo/shared';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDigest } from '../../test/ledger-digest.ts';
import { rawExchange } from '../../test/raw-http.ts';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../test/test-app.ts';

/**
 * Walks every operation of the OpenAPI document with requests generated from its own schemas,
 * as an anonymous caller, an admin and a manager: values the schema accepts, values it does not,
 * and the hostile ones an attacker tries (NUL bytes, lone surrogates, huge and negative numbers,
 * dates far out of range, empty updates, wrong types, long strings, JSON nested thousands deep). No answer may be a 5xx,
 * every error is `{ code, message }` with a known code, and a refused request leaves the ledger
 * (invoices, transactions and the dashboard's daily rollup) as it was. Routes come from the
 * document, so a new route is fuzzed without being listed here.
 *
 * Nothing is skipped: an event stream answers its status and headers, and is then hung up on.
 *
 * FUZZ_SEED and FUZZ_RUNS (requests per operation) replay or widen a run; a failure prints the
 * seed and the request that failed (unshrunk: each request changes the database the next meets).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** FUZZ_STATS=1 prints how each operation answered, to see how deep the requests reach. */
const STATS = process.env.FUZZ_STATS ? new Map<string, Map<string, number>>() : undefined;

/** Outside systems may genuinely fail; these are the only 5xx answers the API documents. */
const OUTSIDE_FAILURES: ErrorCode[] = ['InvoiceFailed', 'LightningUnavailable', 'RateUnavailable'];

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  maxItems?: number;
};
type Parameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type OpenApi = { paths: Record<string, Record<string, Operation>> };

/** A value resolved when the request is sent, from what the database holds then. */
type Known = { known: keyof Pools; index: number; suffix?: string };
type Pools = {
  accountId: string[];
  bptId: string[];
  invoiceId: string[];
  managerId: string[];
  shareToken: string[];
  paymentRequest: string[];
  email: string[];
  refreshToken: string[];
  k1: string[];
};

type Caller = 'anonymous' | 'admin' | 'manager';
type FuzzRequest = {
  caller: Caller;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; type: string };
};

let t: TestApp;
let base: string;
let doc: OpenApi;
let headers: Record<Caller, Record<string, string>>;
let organizationId: string;
let requests = 0;
let signedIn: Record<Exclude<Caller, 'anonymous'>, string>;
let refreshToken = '';
/** The terminal every operation may reach: deletes leave it alone, so later operations still can. */
let keptBptId = '';

const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\ud800',
  'x\udfffy',
  '😀',
  'Ω≈ç√',
  '١٢٣',
  '１２３',
  '-1',
  '0',
  '-0',
  '1e400',
  '1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x1F',
  '9'.repeat(40),
  '1.999999999999',
  '99999999999999.99',
  '999999999999999',
  "'; drop table invoices; --",
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'null',
  'true',
  '[]',
  '{}',
  'a'.repeat(5000),
  '\u202e\u0000\ufeff',
];

const hostileNumbers = [
  -1,
  0,
  0.5,
  1.5,
  -0.000001,
  2 ** 31,
  2 ** 53,
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  8.64e12,
  8.64e15,
  253402300800,
  -62135596800,
];

function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...hostileStrings) },
    { weight: 2, arbitrary: fc.constantFrom(...hostileNumbers) },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { a: '\u0000' }, ['\u0000']) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt().map(String)) },
  );
}

/**
 * JSON nested past any depth a body needs: thousands of levels once overflowed the text check's
 * recursion (a 500) and cost the event loop over 100 ms a request. Arrays, objects and strings
 * with brackets, closed or not, around fields a schema knows.
 */
const nestedJson = fc
  .tuple(
    fc.constantFrom(33, 100, 7000),
    fc.constantFrom(['[', ']'], ['{"a":', '}'], ['[{"name":', '}]']),
    fc.constantFrom('0', '"\\u0000"', '"]]]"'),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([levels, [open, close], inner, closed, wrapped]) => {
    const nest = `${open.repeat(levels)}${inner}${closed ? close.repeat(levels) : ''}`;
    return wrapped ? `{"name":"x","amount":${nest}}` : nest;
  });

function known(pool: keyof Pools): fc.Arbitrary<Known> {
  return fc.nat().map((index) => ({ known: pool, index }));
}

/** Amounts a keypad sends and the ones it should never send. */
const amount = fc.oneof(
  fc.constantFrom('1', '10.00', '0.01', '0', '0.00', '12.345', '50', '999999', '1000000', '1000000.01'),
  fc.constantFrom('999999999999999', '999999999999999.99999999', '21000000', '100000000000', '7.5'),
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.nat({ max: 99 }))
    .map(([whole, cents]) => `${whole}.${cents}`),
  fc.nat({ max: 100_000 }).map(String),
);

/** Unix seconds, from sensible ones to ones past what a date or PostgreSQL holds. */
const unixSeconds = fc.oneof(
  fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
  fc.constantFrom(0, 1, 253402300799, 253402300800, 8.64e12, 8.64e12 + 1, 9.2e12, 1e15, Number.MAX_SAFE_INTEGER),
  fc.nat(),
);

/** Names whose valid values the schema cannot know: a random UUID reaches no record. */
function byName(name: string, schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
  if (/^(id)$/.test(name)) return fc.oneof(known('accountId'), known('bptId'), known('invoiceId'), known('managerId'));
  if (name === 'account' || name === 'accountId') return known('accountId');
  if (name === 'accountIds') return fc.array(known('accountId'), { maxLength: 3 });
  if (name === 'token') return known('shareToken');
  if (name === 'paymentRequest' || name === 'pr') return known('paymentRequest');
  if (name === 'email') return known('email');
  if (name === 'refreshToken') return known('refreshToken');
  if (name === 'k1') return known('k1');
  if (name === 'amount' || name === 'tip') return amount;
  if (name === 'start' || name === 'end') return unixSeconds;
  if (name === 'currency') return fc.constantFrom('GTQ', 'USD', 'SAT', 'JPY', 'KWD', 'CLF', 'usd', 'XXX');
  if (name === 'taxPercentage') return fc.oneof(fc.constantFrom(0, 12, 7.25, '100', '100.01', 101, -1), fc.double());
  if (schema.type === 'integer' && schema.maximum === Number.MAX_SAFE_INTEGER) {
    return fc.oneof(fc.nat({ max: 1000 }), fc.constantFrom(...hostileNumbers));
  }
  return undefined;
}

/**
 * Values the schema describes; `name` steers fields whose valid values live in the database.
 * A `clean` value has no hostile parts, so that a request can get past validation to the
 * handler; otherwise any part may be hostile.
 */
function fromSchema(schema: JsonSchema, name = '', depth = 0, clean = false): fc.Arbitrary<unknown> {
  // The callers' own password, or one too weak to be set: a new one would lock them out.
  if (/password$/i.test(name)) {
    const weak = fc.constantFrom<unknown>(...hostileStrings, ...hostileNumbers, null);
    return clean ? fc.constant(TEST_PASSWORD) : fc.oneof(fc.constant(TEST_PASSWORD), weak);
  }
  const named = byName(name, schema);
  const alternatives = schema.anyOf ?? schema.oneOf;
  let arbitrary: fc.Arbitrary<unknown>;
  if (schema.const !== undefined) arbitrary = fc.constant(schema.const);
  else if (schema.enum) arbitrary = fc.constantFrom(...schema.enum);
  else if (alternatives) arbitrary = fc.oneof(...alternatives.map((s) => fromSchema(s, name, depth, clean)));
  else if (schema.allOf?.[0]) arbitrary = fromSchema(schema.allOf[0], name, depth, clean);
  else {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string':
        if (schema.format === 'uuid') arbitrary = fc.uuid();
        else if (schema.format === 'email') arbitrary = fc.emailAddress();
        else if (schema.format === 'date-time')
          arbitrary = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
        else if (schema.pattern) arbitrary = fc.stringMatching(new RegExp(schema.pattern));
        else
          arbitrary = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) });
        break;
      case 'integer':
        arbitrary = fc.integer({
          min: Math.max(schema.minimum ?? -1000, Number.MIN_SAFE_INTEGER),
          max: Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER),
        });
        break;
      case 'number':
        arbitrary = fc.double({ noNaN: true, noDefaultInfinity: true });
        break;
      case 'boolean':
        arbitrary = fc.boolean();
        break;
      case 'array':
        arbitrary =
          depth > 2
            ? fc.constant([])
            : fc.array(fromSchema(schema.items ?? {}, name, depth + 1, clean), { maxLength: 3 });
        break;
      case 'object':
        arbitrary = depth > 2 ? fc.constant({}) : objectFromSchema(schema, depth + 1, clean);
        break;
      default:
        arbitrary = hostileValue();
    }
  }
  if (schema.nullable) arbitrary = fc.oneof(arbitrary, fc.constant(null));
  if (clean) return named ?? arbitrary;
  return fc.oneof(
    { weight: 6, arbitrary: named ?? arbitrary },
    { weight: 2, arbitrary },
    { weight: 3, arbitrary: hostileValue() },
  );
}

function objectFromSchema(schema: JsonSchema, depth: number, clean: boolean): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  const model = Object.fromEntries(properties.map(([key, value]) => [key, fromSchema(value, key, depth, clean)]));
  const required = (schema.required ?? []).filter((key) => key in model);
  const valid = fc.record(model, { requiredKeys: required });
  if (clean) return valid;
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    // Missing required fields, and fields the schema does not know.
    { weight: 2, arbitrary: fc.record(model, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), hostileValue(), { maxKeys: 3 }) },
  );
}

function requestArbitrary(method: string, operation: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters ?? [];
  const group = (where: Parameter['in'], clean: boolean) =>
    Object.fromEntries(
      parameters
        .filter((p) => p.in === where)
        .map((p) => [p.name, fromSchema(p.schema ?? {}, p.name, 0, clean)] as const),
    );
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => ({ kind: 'json' as const, value: v }));
  const none = fc.constant({ kind: 'none' as const });
  const body: fc.Arbitrary<FuzzRequest['body']> = bodySchema
    ? fc.oneof(
        { weight: 6, arbitrary: json(fromSchema(bodySchema)) },
        { weight: 2, arbitrary: json(fc.constant({})) },
        { weight: 1, arbitrary: none },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('raw' as const),
            text: fc.oneof(
              fc.constantFrom('{"amount":', 'not json', '{"a":"\\u0000"}', '"\\ud800"', '[1,2'),
              nestedJson,
            ),
            type: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
          }),
        },
      )
    : method === 'get'
      ? none
      : fc.oneof({ weight: 4, arbitrary: none }, { weight: 1, arbitrary: json(hostileValue()) });
  const build = (clean: boolean) =>
    fc.record({
      caller: clean
        ? fc.constantFrom<Caller>('admin', 'manager')
        : fc.constantFrom<Caller>('anonymous', 'admin', 'manager'),
      params: fc.record(group('path', clean)),
      query: fc.record(group('query', clean), { requiredKeys: [] }),
      headers: fc.record(group('header', clean), { requiredKeys: [] }),
      body: clean ? (bodySchema ? json(fromSchema(bodySchema, '', 0, true)) : none) : body,
    });
  // Clean requests, signed in and well formed, get past the access check and validation to the
  // handlers and the database; poisoned ones are clean but for one text with a character no
  // column holds, which would otherwise hide among the wild requests' other faults.
  const poisoned = fc
    .tuple(build(true), fc.nat(), fc.constantFrom('\u0000', '\ud800', '\udc00x', 'a\u0000b'))
    .map(([request, index, poison]) => poisonOne(request, index, poison));
  return fc.oneof(
    { weight: 2, arbitrary: build(true) },
    { weight: 1, arbitrary: poisoned },
    { weight: 4, arbitrary: build(false) },
  );
}

/** The request with `poison` added to one of its texts, chosen by `index`. */
function poisonOne(request: FuzzRequest, index: number, poison: string): FuzzRequest {
  const copy = structuredClone(request);
  const slots: Array<() => void> = [];
  const visit = (value: unknown, set: (next: unknown) => void) => {
    if (typeof value === 'string') slots.push(() => set(value + poison));
    else if (isKnown(value)) slots.push(() => set({ ...value, suffix: poison }));
    else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        visit(item, (next) => {
          (value as Record<string, unknown>)[key] = next;
        });
      }
    }
  };
  visit(copy.params, () => {});
  visit(copy.query, () => {});
  if (copy.body.kind === 'json') {
    const body = copy.body;
    visit(body.value, (next) => {
      body.value = next;
    });
  }
  slots[index % Math.max(slots.length, 1)]?.();
  return copy;
}

async function pools(method: string): Promise<Pools> {
  const ids = async (table: 'accounts' | 'bpts' | 'invoices') =>
    (await t.db.selectFrom(table).select('id').where('organization_id', '=', organizationId).execute()).map(
      (r) => r.id,
    );
  const bpts = await t.db
    .selectFrom('bpts')
    .select(['id', 'share_token'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .execute();
  const invoices = await t.db
    .selectFrom('invoices')
    .select(['payment_request'])
    .where('organization_id', '=', organizationId)
    .execute();
  const users = await t.db.selectFrom('users').select(['id', 'email', 'role']).execute();
  const withdrawals = await t.db.selectFrom('devnet_withdrawals').select('k1').execute();
  return {
    accountId: await ids('accounts'),
    bptId: bpts.map((b) => b.id).filter((id) => method !== 'delete' || id !== keptBptId),
    invoiceId: await ids('invoices'),
    // Not the manager who calls: deleting them would end the fuzz's manager calls.
    managerId: users.filter((u) => u.role === 'manager' && u.email !== signedIn.manager).map((u) => u.id),
    shareToken: bpts.flatMap((b) => (b.share_token ? [b.share_token] : [])),
    paymentRequest: invoices.map((i) => i.payment_request),
    email: users.map((u) => u.email),
    refreshToken: [refreshToken],
    k1: withdrawals.map((w) => w.k1),
  };
}
function isKnown(value: unknown): value is Known {
  return typeof value === 'object' && value !== null && 'known' in value && 'index' in value;
}

function resolve(value: unknown, current: Pools): unknown {
  if (isKnown(value)) {
    const pool = current[value.known];
    return (pool.length > 0 ? pool[value.index % pool.length] : 'none') + (value.suffix ?? '');
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, current));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, current)]));
  }
  return value;
}

/**
 * encodeURIComponent, except that a lone surrogate, which it refuses, goes out as the three bytes
 * a careless client would send (its WTF-8 form), so the server meets it too.
 */
function encode(text: string): string {
  let encoded = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else encoded += encodeURIComponent(char);
  }
  return encoded;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/**
 * Settlements land a moment after the call that paid, through the settlement stream: wait until
 * every invoice the devnet node has been paid for is in the ledger, whatever the machine's pace.
 */
async function settledLedger(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await sql<{ unrecorded: number }>`
      select count(*)::int as unrecorded
      from devnet_invoices d
      join invoices i on i.payment_hash = d.payment_hash
      where d.settled_at is not null
        and not exists (select 1 from transactions x where x.payment_hash = d.payment_hash)`.execute(t.db);
    if ((rows[0]?.unrecorded ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error('a devnet payment was not recorded within 30 s');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function send(method: string, pathTemplate: string, request: FuzzRequest) {
  const current = await pools(method);
  const path = pathTemplate.replace(/\{(\w+)\}/g, (_, name: string) =>
    encode(asText(resolve(request.params[name], current))),
  );
  const query = Object.entries(resolve(request.query, current) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encode(key)}=${encode(asText(value))}`);
  const search = query.length > 0 ? `?${query.join('&')}` : '';
  const init: RequestInit & { headers: Record<string, string> } = {
    method: method.toUpperCase(),
    headers: { ...headers[request.caller] },
  };
  for (const [name, value] of Object.entries(resolve(request.headers, current) as Record<string, unknown>)) {
    // HTTP carries only visible ASCII in a header here; anything else never reaches a server.
    const text = asText(value);
    if (value !== undefined && /^[\x20-\x7e]*$/.test(text)) init.headers[name] = text;
  }
  if (request.body.kind === 'json') {
    init.body = JSON.stringify(resolve(request.body.value, current)) ?? 'null';
    init.headers['content-type'] = 'application/json';
  } else if (request.body.kind === 'raw') {
    init.body = request.body.text;
    init.headers['content-type'] = request.body.type;
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  requests += 1;
  try {
    const response = await fetch(`${base}${path}${search}`, { ...init, signal: controller.signal });
    // An event stream never ends by itself: its status is the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: response.status, body: '', url: `${path}${search}` };
    }
    return { status: response.status, body: await response.text(), url: `${path}${search}` };
  } finally {
    clearTimeout(timer);
  }
}

/** An error answer's code and the start of its message, for FUZZ_STATS. */
function summaryOf(body: string): string {
  try {
    const { code, message } = JSON.parse(body) as { code?: unknown; message?: unknown };
    return `${code} ${String(message).slice(0, 60)}`;
  } catch {
    return 'not JSON';
  }
}

/** SEED mixed with an operation's name (FNV-1a), as a 32-bit seed. */
function seedOf(operation: string): number {
  let hash = 0x811c9dc5 ^ SEED;
  for (const char of operation) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash | 0;
}

/** What is wrong with one answer, or undefined. */
function problemWith(status: number, body: string): string | undefined {
  if (status < 400) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `a ${status} whose body is not JSON: ${body.slice(0, 200)}`;
  }
  const { code, message, ...rest } = (parsed ?? {}) as { code?: unknown; message?: unknown };
  if (!isErrorCode(code) || typeof message !== 'string' || message === '' || Object.keys(rest).length > 0) {
    return `a ${status} that is not { code, message } with a known code: ${body.slice(0, 200)}`;
  }
  if (status >= 500 && !OUTSIDE_FAILURES.includes(code)) return `a ${status} ${code}: ${message}`;
  return undefined;
}

/**
 * A fuzzed logout, password change or sign-out of all sessions ends the callers' sessions; each
 * operation starts with callers whose tokens work, so that it reaches past the access check.
 */
async function keepSignedIn(): Promise<void> {
  for (const [caller, email] of Object.entries(signedIn) as Array<[keyof typeof signedIn, string]>) {
    const probe = await t.app.inject({ method: 'GET', url: '/api/settings/mfa', headers: headers[caller] });
    if (probe.statusCode === 200) continue;
    const session = await signIn(t.app, email, TEST_PASSWORD);
    headers[caller] = bearer(session.accessToken);
    if (caller === 'admin') refreshToken = session.refreshToken;
  }
}

beforeAll(async () => {
  // The fuzz signs in often, and its own callers sign in again when it has ended their sessions.
  // Invoices outlive the run, so that no expiry moves the ledger under a refused request.
  t = await createTestApp(
    {
      SIGNIN_LIMIT_PER_EMAIL: '100000',
      SIGNIN_LIMIT_PER_IP: '100000',
      INVOICE_EXPIRY_SECONDS: '86400',
    },
    { jobs: true },
  );
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  doc = t.app.swagger() as unknown as OpenApi;

  const organization = await createTestOrganization(t.db, 'Fuzzed');
  organizationId = organization.id;
  const account = await createTestAccount(t.db, organization.id, 'Counter');
  await createTestAccount(t.db, organization.id, 'Spare');
  const admin = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const manager = await createTestUser(t.db, {
    role: 'manager',
    organizationId: organization.id,
    accountIds: [account.id],
  });
  await createTestUser(t.db, { role: 'manager', organizationId: organization.id, accountIds: [account.id] });
  signedIn = { admin: admin.email, manager: manager.email };
  headers = { anonymous: {}, admin: {}, manager: {} };
  await keepSignedIn();
  const post = async (url: string, payload: object) => {
    const response = await t.app.inject({ method: 'POST', url, headers: headers.admin, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const bpt = await post('/api/bpts', {
    name: 'Till',
    accountId: account.id,
    currency: 'GTQ',
    shareable: true,
    tipEnabled: true,
    taxPercentage: 12,
  });
  keptBptId = bpt.id;
  await post('/api/bpts', { name: 'Sats', accountId: account.id, currency: 'SAT', shareable: true });
  // A paid sale, so that the dashboard has something to sum while it is fuzzed.
  const invoice = await post(`/api/bpts/${bpt.id}/invoices`, { amount: '25.00', tip: '2.50' });
  await post('/api/devnet/pay', { paymentRequest: invoice.paymentRequest });
  await post(`/api/bpts/${bpt.id}/invoices`, { amount: '10.00' });
  await post('/api/devnet/lnurl-withdraw', {});
  await settledLedger();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function operations(): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => [method, path, operation] as [string, string, Operation]),
  );
}

describe('every operation of the OpenAPI document, fuzzed from its schemas', () => {
  it('answers no 5xx, only { code, message } errors, and refuses without touching the ledger', async () => {
    const started = Date.now();
    const failures: string[] = [];
    const all = operations();
    expect(all.length).toBeGreaterThan(40);
    for (const [method, path, operation] of all) {
      await keepSignedIn();
      const property = fc.asyncProperty(requestArbitrary(method, operation), async (request) => {
        const before = await ledgerDigest(t.db);
        const { status, body, url } = await send(method, path, request);
        if (STATS) {
          const key = `${method.toUpperCase()} ${path}`;
          const answer = `${status}${status >= 400 ? ` ${summaryOf(body)}` : ''}`;
          const counts = STATS.get(key) ?? new Map<string, number>();
          STATS.set(key, counts.set(answer, (counts.get(answer) ?? 0) + 1));
        }
        const problem = problemWith(status, body);
        if (problem) throw new Error(`${method.toUpperCase()} ${url} as ${request.caller}: ${problem}`);
        if (status >= 400) {
          const after = await ledgerDigest(t.db);
          if (after !== before) {
            throw new Error(
              `${method.toUpperCase()} ${url} as ${request.caller} answered ${status} but changed the ledger`,
            );
          }
        } else if (method !== 'get') {
          await settledLedger();
        }
      });
      // One seed per operation, so that a new route does not change the requests of the others.
      const seed = seedOf(`${method} ${path}`);
      const details = await fc.check(property, { seed, numRuns: RUNS, endOnFailure: true });
      if (details.failed) {
        const error =
          details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        const example = fc.stringify(details.counterexample).slice(0, 400);
        failures.push(
          `${error}\n  replay: FUZZ_SEED=${SEED} (seed ${details.seed}, path ${details.counterexamplePath}) ${example}`,
        );
      }
    }
    // The organization's dashboard still answers, whatever the fuzz managed to sell and pay.
    for (const url of [
      '/api/dashboard/transactions',
      '/api/dashboard/transactions/sum',
      '/api/dashboard/transactions/series',
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: headers.admin });
      if (response.statusCode !== 200)
        failures.push(`after the fuzz, ${url} answered ${response.statusCode} ${response.body}`);
    }
    console.info(
      `fuzzed ${all.length} operations with ${requests} requests in ${Date.now() - started} ms (seed ${SEED})`,
    );
    for (const [key, counts] of STATS ?? []) console.info(key, JSON.stringify(Object.fromEntries(counts)));
    if (failures.length > 0) console.error(failures.join('\n'));
    expect(failures, `seed ${SEED}`).toEqual([]);
  }, 600_000);
});

describe('raw HTTP that no client library sends', () => {
  const host = 'Host: 127.0.0.1\r\n';
  const signIn = 'POST /api/auth/signin HTTP/1.1\r\n';
  const cases: Array<[string, string | Buffer, boolean]> = [
    ['a NUL byte in the path', `GET /api/countries\u0000 HTTP/1.1\r\n${host}\r\n`, false],
    ['a control byte in a header value', `GET /api/countries HTTP/1.1\r\n${host}X-Note: a\u0001b\r\n\r\n`, false],
    ['a space in a header name', `GET /api/countries HTTP/1.1\r\n${host}X Note: a\r\n\r\n`, false],
    [
      'bytes that are not UTF-8 in the path',
      Buffer.from('GET /api/terminal/\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'),
      false,
    ],
    [
      'Content-Length beside chunked',
      `${signIn}${host}Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      false,
    ],
    ['two different Content-Lengths', `${signIn}${host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, false],
    [
      'a bad chunk size',
      `${signIn}${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      false,
    ],
    ['a header of 20 KB', `GET /api/countries HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, false],
    ['two thousand headers', `GET /api/countries HTTP/1.1\r\n${host}${'X-A: b\r\n'.repeat(2000)}\r\n`, false],
    ['an unknown HTTP version', `GET /api/countries HTTP/9.9\r\n${host}\r\n`, false],
    [
      'a TLS greeting',
      Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a]),
      false,
    ],
    [
      'a body cut short',
      `${signIn}${host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`,
      true,
    ],
    ['headers cut short', `GET /api/countries HTTP/1.1\r\n${host}X-A: b`, true],
    ['an empty JSON body', `${signIn}${host}Content-Type: application/json\r\nContent-Length: 0\r\n\r\n`, false],
    [
      'an empty chunked JSON body',
      `${signIn}${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      false,
    ],
    [
      'deep JSON, chunked',
      `${signIn}${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1f40\r\n${'['.repeat(8000)}\r\n0\r\n\r\n`,
      false,
    ],
  ];

  it.each(cases)('answers %s with { code, message } and the security headers, or closes', async (_, bytes, end) => {
    const answer = await rawExchange(t.app, bytes, end);
    if (answer === undefined) return;
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(problemWith(answer.status, answer.body)).toBeUndefined();
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps serving afterwards', async () => {
    const answer = await rawExchange(t.app, `GET /api/countries HTTP/1.1\r\n${host}Connection: close\r\n\r\n`, false);
    expect(answer?.status).toBe(200);
  });
});
