import { MAX_DEVNET_BLOCKS, mineDevnetBlocks } from '../adapters/chain/devnet.ts';
import { type Config, loadConfig } from '../config.ts';
import { openDevnetDatabase } from './devnet-database.ts';

const usage = `Mines blocks on the devnet chain, as the devnet wallet page's Mine block button does.

  npm run devnet:mine [-- <blocks>]

<blocks> is 1 to ${MAX_DEVNET_BLOCKS}, 1 by default. The first block confirms every payment in the mempool.`;

const args = process.argv.slice(2);
const blocks = args.length === 0 ? 1 : Number(args[0]);
if (args.length > 1 || !Number.isInteger(blocks) || blocks < 1 || blocks > MAX_DEVNET_BLOCKS) {
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
if (config.chain.backend !== 'devnet') {
  console.error(`CHAIN_BACKEND is ${config.chain.backend}: only the devnet chain can be mined here.`);
  process.exit(2);
}

const database = await openDevnetDatabase(config).catch((error: unknown) => {
  console.error(`Cannot open the database: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
let exitCode = 0;
try {
  const height = await mineDevnetBlocks(database.db, blocks);
  console.log(`Mined ${blocks} block${blocks === 1 ? '' : 's'}; the devnet chain is at height ${height}.`);
} catch (error) {
  console.error(`Not mined: ${error instanceof Error ? error.message : error}`);
  exitCode = 1;
} finally {
  await database.close();
}
// The embedded PostgreSQL package exits with 0 on beforeExit, which would hide a failure.
process.exit(exitCode);
