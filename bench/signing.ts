/**
 * The cost of secp256k1 in Rayo on this machine, one call at a time in a loop. Signing is the
 * devnet node's (lnd or Core Lightning sign in production): the signature with noble, which Rayo
 * uses, and with libsecp256k1 compiled to WebAssembly (`tiny-secp256k1`, a dev dependency) for
 * comparison; BOLT11's encoding with its signature; the whole devnet invoice. Verifying is what
 * production does: `decodeBolt11` on a refund's or an LNURL payout's invoice, and one ECDSA
 * verification per input of an on-chain payout batch.
 *
 *   npm run bench:signing
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as libsecp256k1 from 'tiny-secp256k1';
import { signDevnetInvoice } from '../apps/server/src/adapters/lightning/devnet-invoice.ts';
import { decodeBolt11, encodeBolt11 } from '../apps/server/src/domain/bolt11.ts';
import { signRecoverable } from '../apps/server/src/domain/recoverable-signature.ts';

const CALLS = Number(process.env.BENCH_SIGNING_CALLS ?? 20_000);
const nodeKey = randomBytes(32);
const publicKey = secp256k1.getPublicKey(nodeKey, true);
const hash = randomBytes(32);
const signature = secp256k1.sign(hash, nodeKey, { prehash: false });
const invoiceFields = {
  currency: 'bcrt',
  amountMsat: 71_400_000n,
  timestamp: Math.floor(Date.now() / 1000),
  paymentHash: '11'.repeat(32),
  paymentSecret: '22'.repeat(32),
  description: 'Bench Café · Till',
  expirySeconds: 900,
  minFinalCltvExpiry: 80,
};
const invoice = encodeBolt11(invoiceFields, nodeKey);

/** Microseconds per call, after a warm-up of a tenth as many calls. */
function microsecondsPerCall(run: () => unknown): number {
  for (let i = 0; i < CALLS / 10; i += 1) run();
  const start = performance.now();
  for (let i = 0; i < CALLS; i += 1) run();
  return ((performance.now() - start) / CALLS) * 1000;
}

const rows: [string, () => unknown][] = [
  ['signature, noble (Rayo)', () => signRecoverable(hash, nodeKey)],
  ['signature, libsecp256k1 in WebAssembly', () => libsecp256k1.signRecoverable(hash, nodeKey)],
  ['encodeBolt11 (with its signature)', () => encodeBolt11(invoiceFields, nodeKey)],
  [
    'signDevnetInvoice (secrets, encoding, signature)',
    () => signDevnetInvoice({ amountMsat: 71_400_000n, description: 'Bench Café · Till', expirySeconds: 900 }, nodeKey),
  ],
  ['verification, noble (Rayo)', () => secp256k1.verify(signature, hash, publicKey, { prehash: false })],
  ['verification, libsecp256k1 in WebAssembly', () => libsecp256k1.verify(hash, publicKey, signature)],
  ['decodeBolt11 (recovers the payee)', () => decodeBolt11(invoice)],
];

console.log(
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC, load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}; ${CALLS} calls each\n`,
);
console.log('| measurement | µs per call |');
console.log('|---|---|');
for (const [name, run] of rows) console.log(`| ${name} | ${microsecondsPerCall(run).toFixed(1)} |`);
