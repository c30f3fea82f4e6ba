import { payDevnetInvoice } from '../adapters/lightning/devnet.ts';
import { runDevnetCommand } from './devnet-database.ts';

const usage = `Pays an invoice of the devnet Lightning node, as the devnet wallet page does.

  npm run devnet:pay -- <invoice>

The invoice is a BOLT11 payment request starting with lnbcrt (a lightning: prefix is fine).`;

const args = process.argv.slice(2);
const paymentRequest = args[0];
if (args.length !== 1 || !paymentRequest || paymentRequest.startsWith('-')) {
  console.error(usage);
  process.exit(2);
}

await runDevnetCommand({
  refusal: (config) =>
    config.lightning.backend === 'devnet'
      ? undefined
      : `LIGHTNING_BACKEND is ${config.lightning.backend}: only the devnet node's invoices can be paid here.`,
  failure: 'Not paid',
  work: async (db) => {
    const payment = await payDevnetInvoice(db, paymentRequest);
    const sats = payment.amountMsat / 1000n;
    const rest = payment.amountMsat % 1000n;
    console.log(`Paid ${sats}${rest === 0n ? '' : `.${rest.toString().padStart(3, '0')}`} sat.`);
    console.log(`Payment hash: ${payment.paymentHash}`);
    console.log(`Preimage:     ${payment.preimage}`);
  },
});
