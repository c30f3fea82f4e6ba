/**
 * What an lnd macaroon allows, read from the macaroon itself, so that Rayo can say at start which
 * permission is missing instead of failing at the first payment. lnd answers a call the macaroon
 * does not allow with a bare "permission denied", naming nothing.
 *
 * A macaroon file is go-macaroon's version 2 binary format (a version byte 2, then fields of a type
 * byte, a uvarint length and the data; the identifier is field type 2). lnd's identifier is a
 * version byte 3 followed by the protobuf `macaroonpb.MacaroonId` (nonce = 1, storageId = 2,
 * repeated `Op ops` = 3; `Op` is entity = 1, repeated actions = 2): lnd `macaroons/service.go`,
 * `macaroons/macaroonpb/id.proto`.
 */

/** A permission as `lncli bakemacaroon` takes it: `entity:action`, or `uri:/package.Service/Method`. */
export type LndPermission = string;

/** One call Rayo makes and what lnd requires for it (lnd `rpcserver.go` MainRPCServerPermissions and the sub-servers'). */
export type LndCall = { name: string; uri: string; permission: LndPermission };

export const LND_CALLS = {
  getInfo: { name: 'GET /v1/getinfo', uri: '/lnrpc.Lightning/GetInfo', permission: 'info:read' },
  addInvoice: { name: 'POST /v1/invoices', uri: '/lnrpc.Lightning/AddInvoice', permission: 'invoices:write' },
  listInvoices: { name: 'GET /v1/invoices', uri: '/lnrpc.Lightning/ListInvoices', permission: 'invoices:read' },
  subscribeInvoices: {
    name: 'GET /v1/invoices/subscribe',
    uri: '/lnrpc.Lightning/SubscribeInvoices',
    permission: 'invoices:read',
  },
  // invoicesrpc asks for write, not read, to look an invoice up (lnrpc/invoicesrpc/invoices_server.go).
  lookupInvoice: {
    name: 'GET /v2/invoices/lookup',
    uri: '/invoicesrpc.Invoices/LookupInvoiceV2',
    permission: 'invoices:write',
  },
  decodePayReq: { name: 'GET /v1/payreq', uri: '/lnrpc.Lightning/DecodePayReq', permission: 'offchain:read' },
  sendPayment: { name: 'POST /v2/router/send', uri: '/routerrpc.Router/SendPaymentV2', permission: 'offchain:write' },
  trackPayment: {
    name: 'GET /v2/router/track',
    uri: '/routerrpc.Router/TrackPaymentV2',
    permission: 'offchain:read',
  },
} as const satisfies Record<string, LndCall>;

/** The calls that taking payments needs; without one of them Rayo does not start. */
export const RECEIVING_CALLS: readonly LndCall[] = [
  LND_CALLS.getInfo,
  LND_CALLS.addInvoice,
  LND_CALLS.listInvoices,
  LND_CALLS.subscribeInvoices,
  LND_CALLS.lookupInvoice,
  LND_CALLS.decodePayReq,
];

/** The calls that Lightning payouts add. */
export const PAYOUT_CALLS: readonly LndCall[] = [LND_CALLS.sendPayment, LND_CALLS.trackPayment];

/** Every permission `calls` need, in the order `lncli bakemacaroon` lists them. */
export function permissionsFor(calls: readonly LndCall[]): LndPermission[] {
  return [...new Set(calls.map((call) => call.permission))].sort();
}

/**
 * The permissions the macaroon grants, or null when it is not an lnd macaroon this code can read
 * (another format or a newer identifier): then lnd's own answers are the only check.
 */
export function macaroonPermissions(macaroonHex: string): Set<LndPermission> | null {
  try {
    const identifier = identifierOf(Buffer.from(macaroonHex, 'hex'));
    if (identifier === null || identifier[0] !== 3) return null;
    const granted = new Set<LndPermission>();
    for (const [field, op] of protobufFields(identifier.subarray(1))) {
      if (field !== 3 || !(op instanceof Uint8Array)) continue;
      let entity = '';
      const actions: string[] = [];
      for (const [opField, value] of protobufFields(op)) {
        if (!(value instanceof Uint8Array)) continue;
        if (opField === 1) entity = Buffer.from(value).toString('utf8');
        if (opField === 2) actions.push(Buffer.from(value).toString('utf8'));
      }
      for (const action of actions) granted.add(`${entity}:${action}`);
    }
    return granted;
  } catch {
    return null;
  }
}

/** The calls a macaroon that grants `granted` cannot make: neither their permission nor their URI. */
export function callsRefused(granted: Set<LndPermission>, calls: readonly LndCall[]): LndCall[] {
  return calls.filter((call) => !granted.has(call.permission) && !granted.has(`uri:${call.uri}`));
}

/** The identifier field of a version 2 binary macaroon (go-macaroon `marshal-binary.go`). */
function identifierOf(bytes: Buffer): Buffer | null {
  if (bytes[0] !== 2) return null;
  let position = 1;
  for (;;) {
    const type = bytes[position];
    if (type === undefined || type === 0) return null;
    position += 1;
    const [length, next] = uvarint(bytes, position);
    const end = next + length;
    if (end > bytes.length) return null;
    if (type === 2) return bytes.subarray(next, end);
    position = end;
  }
}

function uvarint(bytes: Uint8Array, start: number): [number, number] {
  let value = 0;
  let shift = 0;
  let position = start;
  for (;;) {
    const byte = bytes[position];
    if (byte === undefined || shift > 28) throw new RangeError('truncated varint');
    value += (byte & 0x7f) * 2 ** shift;
    position += 1;
    if (byte < 0x80) return [value, position];
    shift += 7;
  }
}

/** The fields of a protobuf message: varints as numbers, length-delimited ones as bytes. */
function* protobufFields(message: Uint8Array): Generator<[number, number | Uint8Array]> {
  let position = 0;
  while (position < message.length) {
    const [key, afterKey] = uvarint(message, position);
    const field = Math.floor(key / 8);
    switch (key % 8) {
      case 0: {
        const [value, next] = uvarint(message, afterKey);
        position = next;
        yield [field, value];
        break;
      }
      case 2: {
        const [length, start] = uvarint(message, afterKey);
        if (start + length > message.length) throw new RangeError('truncated field');
        position = start + length;
        yield [field, message.subarray(start, position)];
        break;
      }
      default:
        throw new RangeError(`unexpected wire type ${key % 8}`);
    }
  }
}
