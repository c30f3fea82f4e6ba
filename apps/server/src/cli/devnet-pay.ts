import { payDevnetInvoice } from '../adapters/lightning/devnet.ts';
import { type Config, loadConfig } from '../config.ts';
import { openDevnetDatabase } from './devnet-database.ts';

const usage = `Pays an invoice of the devnet Lightning node, as the devnet wallet page does.

  npm run devnet:pay -- <invoice>

The invoice is a BOLT11 payment request starting with lnbcrt (a lightning: prefix is fine).`;

const args = process.argv.slice(2);
const paymentRequest = args[0];
if (args.length !== 1 || !paymentRequest || paymentRequest.startsWith('-')) {
  console.error(usage);
  process.exit(2);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
}
if (config.lightning.backend !== 'devnet') {
  console.error(`LIGHTNING_BACKEND is ${config.lightning.backend}: only the devnet node's invoices can be paid here.`);
  process.exit(2);
}

const database = await openDevnetDatabase(config).catch((error: unknown) => {
  console.error(`Cannot open the database: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
let exitCode = 0;
try {
  const payment = await payDevnetInvoice(database.db, paymentRequest);
  const sats = payment.amountMsat / 1000n;
  const rest = payment.amountMsat % 1000n;
  console.log(`Paid ${sats}${rest === 0n ? '' : `.${rest.toString().padStart(3, '0')}`} sat.`);
  console.log(`Payment hash: ${payment.paymentHash}`);
  console.log(`Preimage:     ${payment.preimage}`);
} catch (error) {
  console.error(`Not paid: ${error instanceof Error ? error.message : error}`);
  exitCode = 1;
} finally {
  await database.close();
}
// The embedded PostgreSQL package exits with 0 on beforeExit, which would hide a failure.
process.exit(exitCode);
