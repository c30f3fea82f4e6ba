/**
 * The cost of one devnet invoice's parts on this machine, one call at a time in a loop: the
 * signature with libsecp256k1 built for the machine and compiled to WebAssembly, BOLT11's
 * encoding with its signature, and the whole devnet invoice (secrets, encoding, signature).
 *
 *   npm run bench:signing
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { signDevnetInvoice } from '../apps/server/src/adapters/lightning/devnet-invoice.ts';
import { encodeBolt11 } from '../apps/server/src/domain/bolt11.ts';
import { signInWebAssembly, signNatively } from '../apps/server/src/domain/recoverable-signature.ts';

const CALLS = Number(process.env.BENCH_SIGNING_CALLS ?? 20_000);
const nodeKey = randomBytes(32);
const hash = randomBytes(32);

/** Microseconds per call, after a warm-up of a tenth as many calls. */
function microsecondsPerCall(run: () => unknown): number {
  for (let i = 0; i < CALLS / 10; i += 1) run();
  const start = performance.now();
  for (let i = 0; i < CALLS; i += 1) run();
  return ((performance.now() - start) / CALLS) * 1000;
}

const native = signNatively;
const rows: [string, (() => unknown) | undefined][] = [
  ['signature, libsecp256k1 built for this machine', native && (() => native(hash, nodeKey))],
  ['signature, libsecp256k1 in WebAssembly', () => signInWebAssembly(hash, nodeKey)],
  [
    'encodeBolt11 (with its signature)',
    () =>
      encodeBolt11(
        {
          currency: 'bcrt',
          amountMsat: 71_400_000n,
          timestamp: Math.floor(Date.now() / 1000),
          paymentHash: '11'.repeat(32),
          paymentSecret: '22'.repeat(32),
          description: 'Bench Café · Till',
          expirySeconds: 900,
          minFinalCltvExpiry: 80,
        },
        nodeKey,
      ),
  ],
  [
    'signDevnetInvoice (secrets, encoding, signature)',
    () => signDevnetInvoice({ amountMsat: 71_400_000n, description: 'Bench Café · Till', expirySeconds: 900 }, nodeKey),
  ],
];

console.log(
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; ${CALLS} calls each\n`,
);
console.log('| measurement | µs per call |');
console.log('|---|---|');
for (const [name, run] of rows) {
  console.log(`| ${name} | ${run ? microsecondsPerCall(run).toFixed(1) : 'no build for this machine'} |`);
}
