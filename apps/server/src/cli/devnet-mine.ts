import { MAX_DEVNET_BLOCKS, mineDevnetBlocks } from '../adapters/chain/devnet.ts';
import { runDevnetCommand } from './devnet-database.ts';

const usage = `Mines blocks on the devnet chain, as the devnet wallet page's Mine block button does.

  npm run devnet:mine [-- <blocks>]

<blocks> is 1 to ${MAX_DEVNET_BLOCKS}, 1 by default. The first block confirms every payment in the mempool.`;

const args = process.argv.slice(2);
const blocks = args.length === 0 ? 1 : Number(args[0]);
if (args.length > 1 || !Number.isInteger(blocks) || blocks < 1 || blocks > MAX_DEVNET_BLOCKS) {
  console.error(usage);
  process.exit(2);
}

await runDevnetCommand({
  refusal: (config) =>
    config.chain.backend === 'devnet'
      ? undefined
      : `CHAIN_BACKEND is ${config.chain.backend}: only the devnet chain can be mined here.`,
  failure: 'Not mined',
  work: async (db) => {
    const height = await mineDevnetBlocks(db, blocks);
    console.log(`Mined ${blocks} block${blocks === 1 ? '' : 's'}; the devnet chain is at height ${height}.`);
  },
});
