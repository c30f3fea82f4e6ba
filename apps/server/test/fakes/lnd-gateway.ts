import { randomBytes } from 'node:crypto';
import { importMacaroon, newMacaroon } from 'macaroon';

/**
 * What the lnd stand-in shares with the real gateway in front of lnd: grpc-gateway's decoding of
 * `bytes` in paths and queries, its error bodies, and lnd's macaroons with their permissions.
 */

/** A gRPC status as grpc-gateway answers it before any message: HTTP status and `google.rpc.Status` JSON. */
export type GrpcStatus = { httpStatus: number; code: number; message: string };

/** grpc-gateway `runtime/errors.go` HTTPStatusFromCode, for the codes lnd answers here. */
const HTTP_STATUS: Record<number, number> = { 2: 500, 3: 400, 5: 404, 6: 409 };

export function grpcStatus(code: 2 | 3 | 5 | 6, message: string): GrpcStatus {
  return { httpStatus: HTTP_STATUS[code] ?? 500, code, message };
}

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Go's `base64.Encoding.DecodeString` with padding (`StdEncoding`, `URLEncoding`): the input must
 * end on a whole quantum, `=` only as padding, `\r` and `\n` skipped. Answers the bytes or the
 * offset Go's `CorruptInputError` reports.
 */
function goDecode(text: string, alphabet: string): Buffer | number {
  const out: number[] = [];
  let si = 0;
  const next = (): string | undefined => {
    while (si < text.length && (text[si] === '\n' || text[si] === '\r')) si += 1;
    if (si >= text.length) return undefined;
    si += 1;
    return text[si - 1];
  };
  for (;;) {
    const quantum: number[] = [];
    let j = 0;
    for (; j < 4; j += 1) {
      const char = next();
      if (char === undefined) {
        if (j === 0) return Buffer.from(out);
        // A final quantum of 1–3 characters without its padding.
        return si - j;
      }
      if (char === '=') {
        // Padding: allowed only as the 3rd and 4th, or the 4th character of the last quantum.
        if (j < 2) return si - 1;
        if (j === 2) {
          const second = next();
          if (second === undefined) return text.length;
          if (second !== '=') return si - 2;
        }
        if (next() !== undefined) return si - 1;
        break;
      }
      const value = alphabet.indexOf(char);
      if (value === -1) return si - 1;
      quantum.push(value);
    }
    const bits = quantum.reduce((acc, value) => acc * 64 + value, 0) * 64 ** (4 - quantum.length);
    const bytes = [(bits >> 16) & 0xff, (bits >> 8) & 0xff, bits & 0xff].slice(0, quantum.length - 1);
    out.push(...bytes);
    if (j < 4) return Buffer.from(out);
  }
}

/**
 * grpc-gateway's `runtime.Bytes` (runtime/convert.go): padded standard base64, else padded
 * URL-safe base64; unpadded input is refused with Go's "illegal base64 data at input byte N".
 */
export function gatewayBytes(value: string): Buffer | { error: string } {
  const standard = goDecode(value, STD);
  if (Buffer.isBuffer(standard)) return standard;
  const urlSafe = goDecode(value, URL_SAFE);
  if (Buffer.isBuffer(urlSafe)) return urlSafe;
  return { error: `illegal base64 data at input byte ${urlSafe}` };
}

/**
 * lnd's `invoice.macaroon`: lnd `rpcserver.go` invoicePermissions. It cannot call GetInfo
 * (`info:read`) or DecodePayReq (`offchain:read`).
 */
export const INVOICE_MACAROON = ['invoices:read', 'invoices:write', 'address:read', 'address:write', 'onchain:read'];

/** What `lncli bakemacaroon info:read invoices:read invoices:write offchain:read offchain:write` grants. */
export const BAKED_MACAROON = ['info:read', 'invoices:read', 'invoices:write', 'offchain:read', 'offchain:write'];

function protobufBytes(field: number, value: Uint8Array): Buffer {
  const length: number[] = [];
  let rest = value.length;
  do {
    length.push((rest & 0x7f) | (rest >= 0x80 ? 0x80 : 0));
    rest >>= 7;
  } while (rest > 0);
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...length]), value]);
}

/**
 * A root key and the macaroons baked with it, as lnd's macaroon service keeps them: a version 2
 * binary macaroon at location `lnd` whose identifier is a version byte 3 and the protobuf
 * `MacaroonId{nonce, storageId, ops}` (lnd `macaroons/service.go` NewMacaroon, `macaroonpb/id.proto`),
 * signed through the `macaroon` package (go-macaroon's JavaScript counterpart).
 */
export function createBakery() {
  const rootKey = randomBytes(32);
  const granted = new Map<string, Set<string>>();

  return {
    /** `lncli bakemacaroon <permissions>`: permissions as `entity:action` or `uri:/package.Service/Method`. */
    bake(permissions: readonly string[]): string {
      const byEntity = new Map<string, string[]>();
      for (const permission of permissions) {
        const split = permission.indexOf(':');
        const entity = permission.slice(0, split);
        byEntity.set(entity, [...(byEntity.get(entity) ?? []), permission.slice(split + 1)]);
      }
      const ops = [...byEntity].map(([entity, actions]) =>
        protobufBytes(
          3,
          Buffer.concat([
            protobufBytes(1, Buffer.from(entity)),
            ...actions.map((action) => protobufBytes(2, Buffer.from(action))),
          ]),
        ),
      );
      const identifier = Buffer.concat([
        Buffer.from([3]),
        protobufBytes(1, randomBytes(32)),
        protobufBytes(2, Buffer.from('0')),
        ...ops,
      ]);
      granted.set(identifier.toString('hex'), new Set(permissions));
      const macaroon = newMacaroon({ identifier, location: 'lnd', rootKey, version: 2 });
      return Buffer.from(macaroon.exportBinary()).toString('hex');
    },

    /**
     * lnd's check of the `Grpc-Metadata-macaroon` header for a call needing `permission` (the RPC's
     * entry in `rpcserver.go` MainRPCServerPermissions or its sub-server's), or a `uri:` grant of the
     * call itself: null when allowed, else the status lnd answers (macaroons/service.go
     * ValidateMacaroon; an unknown gRPC error, so HTTP 500 code 2).
     */
    check(header: string | undefined, permission: string, uri: string): GrpcStatus | null {
      if (header === undefined) return grpcStatus(2, 'expected 1 macaroon, got 0');
      let identifier: string;
      try {
        const macaroon = importMacaroon(Buffer.from(header, 'hex'));
        macaroon.verify(rootKey, () => null, []);
        identifier = Buffer.from(macaroon.identifier).toString('hex');
      } catch (error) {
        return grpcStatus(2, `verification failed: ${(error as Error).message}`);
      }
      const permissions = granted.get(identifier);
      if (!permissions) return grpcStatus(2, 'verification failed: unknown root key');
      if (permissions.has(permission) || permissions.has(`uri:${uri}`)) return null;
      return grpcStatus(2, 'permission denied');
    },
  };
}
