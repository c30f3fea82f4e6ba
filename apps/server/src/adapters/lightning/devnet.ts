import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { AppError } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { decodeBolt11 } from '../../domain/bolt11.ts';
import {
  type DevnetInvoiceRow,
  expireDevnetInvoiceNow,
  findDevnetInvoice,
  findDevnetInvoices,
  insertDevnetInvoice,
  listDevnetSettlementsAfter,
  listenForDevnetSettlements,
  type SettledDevnetInvoice,
  settleDevnetInvoice,
  storeSecretOnce,
} from './devnet.repo.ts';
import { DEVNET_CURRENCY, signDevnetInvoice } from './devnet-invoice.ts';
import { createDevnetSigner, type DevnetSigner } from './devnet-signer.ts';
import {
  type DecodedInvoice,
  type InvoiceLookup,
  type LightningBackend,
  LightningBackendError,
  type PaymentLookup,
  type Settlement,
} from './types.ts';

export type DevnetBackendOptions = {
  /**
   * Connection string of the database `db` uses. Each settlement stream holds one connection of
   * its own for LISTEN, which Kysely's pool cannot lend out for good.
   */
  databaseUrl: string;
  /** How often a stream also looks for settlements without being notified. Default 3 s. */
  pollIntervalMs?: number;
  /** First wait before a failed stream starts again, doubling up to 30 s. Default 500 ms. */
  retryDelayMs?: number;
  /** Hears of every failure the stream recovers from, so the caller can log it. Default: console.warn. */
  onStreamError?: (error: LightningBackendError, retryInMs: number) => void;
  /**
   * Whether invoices are signed on a thread of their own. Default: only where there are more than
   * two cores. On two, PostgreSQL and the HTTP clients keep the other core busy, and handing each
   * batch over cost more than signing on the event loop: 23–25 % of the empty-route floor against
   * 24–25 % (docs/benchmarks.md, 2026-11-27).
   */
  signOnThread?: boolean;
  /** Hears why the signing thread was lost, after which invoices are signed on the event loop. Default: console.warn. */
  onSignerLost?: (error: Error) => void;
};

const NODE_KEY_SECRET = 'devnet_node_key';
const SETTLEMENT_BATCH = 100;
const MAX_RETRY_DELAY_MS = 30_000;

export type DevnetPayment = {
  paymentHash: string;
  preimage: string;
  amountMsat: bigint;
  settleIndex: bigint;
  settledAt: Date;
};

/** The node's key is made once per database, so every server process on it is the same node. */
async function loadNodeKey(db: Db): Promise<Uint8Array> {
  return hexToBytes(await storeSecretOnce(db, NODE_KEY_SECRET, bytesToHex(secp256k1.utils.randomSecretKey())));
}

/** The devnet node's compressed public key (hex), the payee of every invoice it signs. */
export async function getDevnetNodePublicKey(db: Db): Promise<string> {
  return bytesToHex(secp256k1.getPublicKey(await loadNodeKey(db), true));
}

function toSettlement(row: SettledDevnetInvoice): Settlement {
  return {
    paymentHash: row.paymentHash,
    settleIndex: row.settleIndex,
    amountPaidMsat: row.amountMsat,
    settledAt: row.settledAt,
  };
}

function isSettled(row: DevnetInvoiceRow): row is SettledDevnetInvoice {
  return row.settleIndex !== null && row.settledAt !== null;
}

function toLookup(paymentHash: string, row: DevnetInvoiceRow | undefined, now: number): InvoiceLookup {
  if (!row) throw new LightningBackendError(`The devnet node has no invoice with payment hash ${paymentHash}`);
  if (isSettled(row)) return { paymentHash, state: 'settled', settlement: toSettlement(row) };
  return { paymentHash, state: row.expiresAt.getTime() < now ? 'expired' : 'open', settlement: null };
}

/**
 * Pays an invoice of the devnet node from the devnet wallet: the wallet page, the CLI, the devnet
 * Bolt Card service and devnet payouts all come here. Settles it at most once.
 */
export async function payDevnetInvoice(db: Db, paymentRequest: string): Promise<DevnetPayment> {
  const invoice = await decodeDevnetInvoice(db, paymentRequest);
  const settled = await settleDevnetInvoice(db, invoice.paymentHash);
  if (settled) {
    return {
      paymentHash: settled.paymentHash,
      preimage: settled.preimage,
      amountMsat: settled.amountMsat,
      settleIndex: settled.settleIndex,
      settledAt: settled.settledAt,
    };
  }
  const current = await findDevnetInvoice(db, invoice.paymentHash);
  if (!current) throw new AppError('InvalidInput', 'The devnet node has no record of this invoice');
  if (current.settleIndex !== null) throw new AppError('InvoiceNotPending', 'This invoice is already paid');
  throw new AppError('InvalidInput', `This invoice expired at ${current.expiresAt.toISOString()}`);
}

/**
 * Lets an unpaid invoice of the devnet node run out now, as it would at its expiry: the node
 * refuses to pay it from then on. Returns its payment hash.
 */
export async function expireDevnetInvoice(db: Db, paymentRequest: string): Promise<string> {
  const invoice = await decodeDevnetInvoice(db, paymentRequest);
  const current = await expireDevnetInvoiceNow(db, invoice.paymentHash);
  if (!current) throw new AppError('InvalidInput', 'The devnet node has no record of this invoice');
  if (current.settleIndex !== null) throw new AppError('InvoiceNotPending', 'This invoice is already paid');
  return invoice.paymentHash;
}

/** A BOLT11 invoice this devnet node signed, decoded; any other is refused. */
async function decodeDevnetInvoice(db: Db, paymentRequest: string) {
  const invoice = decodeBolt11(paymentRequest);
  if (invoice.currency !== DEVNET_CURRENCY) {
    throw new AppError('InvalidInput', `This is not a devnet invoice: those start with ln${DEVNET_CURRENCY}`);
  }
  if (invoice.payee !== (await getDevnetNodePublicKey(db))) {
    throw new AppError('InvalidInput', 'This invoice was issued by another node, not by this devnet');
  }
  return invoice;
}

function asBackendError(error: unknown): LightningBackendError {
  if (error instanceof LightningBackendError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new LightningBackendError(`devnet settlement stream failed: ${message}`, { cause: error });
}

/** Signs every invoice on the caller's thread. */
function signOnEventLoop(nodeKey: Uint8Array): DevnetSigner {
  return {
    sign: async (request) => signDevnetInvoice(request, nodeKey),
    threadReady: Promise.resolve(false),
    close: async () => {},
  };
}

/**
 * The in-process devnet Lightning node (DESIGN §5): it signs real regtest BOLT11 invoices with its
 * own key (on a thread of their own where there is a core for it, devnet-signer.ts), keeps them in
 * PostgreSQL, and settles them
 * when the devnet wallet pays.
 */
export function createDevnetBackend(db: Db, options: DevnetBackendOptions): LightningBackend {
  const pollIntervalMs = options.pollIntervalMs ?? 3000;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const onStreamError =
    options.onStreamError ??
    ((error: LightningBackendError, retryInMs: number) =>
      console.warn(`${error.message}; retrying in ${retryInMs} ms`));
  const onSignerLost =
    options.onSignerLost ??
    ((error: Error) => console.warn(`devnet invoices are signed on the event loop: ${error.message}`));
  const signOnThread = options.signOnThread ?? availableParallelism() > 2;
  let signer: Promise<DevnetSigner> | undefined;
  const signerOf = () => {
    signer ??= loadNodeKey(db).then(
      (nodeKey) => (signOnThread ? createDevnetSigner(nodeKey, onSignerLost) : signOnEventLoop(nodeKey)),
      (error: unknown) => {
        signer = undefined;
        throw error;
      },
    );
    return signer;
  };

  return {
    name: 'devnet',
    network: 'devnet',

    async createInvoice({ amountMsat, description, expirySeconds, hashDescription, storeWithCaller }) {
      const signed = await (await signerOf()).sign({ amountMsat, description, expirySeconds, hashDescription });
      const { paymentHash, paymentRequest } = signed;
      const expiresAt = new Date((signed.timestamp + expirySeconds) * 1000);
      const record = { paymentHash, preimage: signed.preimage, paymentRequest, amountMsat, expiresAt };
      if (storeWithCaller) return { paymentHash, paymentRequest, expiresAt, nodeRecord: record };
      await insertDevnetInvoice(db, record);
      return { paymentHash, paymentRequest, expiresAt };
    },

    async lookupInvoice(paymentHash): Promise<InvoiceLookup> {
      return toLookup(paymentHash, await findDevnetInvoice(db, paymentHash), Date.now());
    },

    async lookupInvoices(paymentHashes): Promise<InvoiceLookup[]> {
      const rows = new Map((await findDevnetInvoices(db, paymentHashes)).map((row) => [row.paymentHash, row]));
      const now = Date.now();
      return paymentHashes.map((paymentHash) => toLookup(paymentHash, rows.get(paymentHash), now));
    },

    async subscribeSettlements(afterIndex, onSettlement, signal) {
      let cursor = afterIndex;
      let delay = retryDelayMs;

      const deliverNewer = async () => {
        for (;;) {
          const batch = await listDevnetSettlementsAfter(db, cursor, SETTLEMENT_BATCH);
          for (const row of batch) {
            if (signal.aborted) return;
            await onSettlement(toSettlement(row));
            cursor = row.settleIndex;
          }
          if (batch.length < SETTLEMENT_BATCH) return;
        }
      };

      // Returns only once `signal` aborts; throws when the listener or a delivery fails.
      const follow = async () => {
        let wake = () => {};
        let nudged = false;
        let failure: Error | undefined;
        const nudge = () => {
          nudged = true;
          wake();
        };
        // Listening starts before the first read, so a settlement between the two is not missed.
        const listener = await listenForDevnetSettlements(options.databaseUrl, nudge, (error) => {
          failure = error;
          nudge();
        });
        // A connection that dies silently brings neither notifications nor an error: poll as a safety net.
        const poll = setInterval(nudge, pollIntervalMs);
        signal.addEventListener('abort', nudge);
        try {
          while (!signal.aborted) {
            if (failure) throw failure;
            nudged = false;
            await deliverNewer();
            delay = retryDelayMs;
            if (!nudged && !signal.aborted) {
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
            }
            wake = () => {};
          }
        } finally {
          clearInterval(poll);
          signal.removeEventListener('abort', nudge);
          await listener.close();
        }
      };

      while (!signal.aborted) {
        try {
          await follow();
        } catch (error) {
          if (signal.aborted) break;
          onStreamError(asBackendError(error), delay);
          await sleep(delay, undefined, { signal }).catch(() => {});
          delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
        }
      }
    },

    async payInvoice(paymentRequest) {
      try {
        const payment = await payDevnetInvoice(db, paymentRequest);
        return { paymentHash: payment.paymentHash, preimage: payment.preimage, feeMsat: 0n };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new LightningBackendError(`The devnet node could not pay: ${error.message}`, { cause: error });
      }
    },

    // Devnet pays at once and only its own invoices, so a payment of a hash exists exactly when
    // that invoice is settled.
    async lookupPayment(paymentHash): Promise<PaymentLookup> {
      const row = await findDevnetInvoice(db, paymentHash);
      if (row && isSettled(row)) return { state: 'succeeded', preimage: row.preimage, feeMsat: 0n };
      return { state: 'unknown' };
    },

    async close() {
      await (await signer?.catch(() => undefined))?.close();
    },

    async decodeInvoice(paymentRequest): Promise<DecodedInvoice> {
      const invoice = decodeBolt11(paymentRequest);
      if (invoice.currency !== DEVNET_CURRENCY) {
        throw new AppError('InvalidInput', `This is not a devnet invoice: those start with ln${DEVNET_CURRENCY}`);
      }
      return {
        paymentHash: invoice.paymentHash,
        amountMsat: invoice.amountMsat,
        description: invoice.description,
        expiresAt: invoice.expiresAt,
        payee: invoice.payee,
      };
    },
  };
}
