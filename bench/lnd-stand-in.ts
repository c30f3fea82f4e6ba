/**
 * The lnd stand-in of the tests (`apps/server/test/fakes/lnd-server.ts`) in a process of its own,
 * so that a benchmark counts its CPU apart from Rayo's and from the load generator's. Started by
 * `startLndStandIn` in `bench/measure.ts`; it answers over IPC with what Rayo needs to reach it
 * and settles the invoices it is told to, as a paying wallet would.
 */
import { startFakeLnd } from '../apps/server/test/fakes/lnd-server.ts';

const lnd = await startFakeLnd({ network: 'regtest' });
process.on('message', (message: { settle: string }) => {
  lnd.settle(message.settle);
});
process.on('disconnect', () => {
  void lnd.close().then(() => process.exit(0));
});
process.send?.({ url: lnd.url, certPem: lnd.certPem, macaroonHex: lnd.macaroonHex });
