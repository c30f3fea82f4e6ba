import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { createDevnetChain } from './devnet.ts';
import { createEsploraChain } from './esplora.ts';
import type { ChainBackend } from './types.ts';

/** The chain source the configuration names: devnet's own chain in the database, or an Esplora API. */
export function createChainBackend(config: Pick<Config, 'chain'>, db: Db): ChainBackend {
  switch (config.chain.backend) {
    case 'devnet':
      return createDevnetChain(db);
    case 'esplora':
      if (config.chain.esploraUrl === undefined) throw new Error('ESPLORA_URL must be set when CHAIN_BACKEND=esplora');
      return createEsploraChain({ baseUrl: config.chain.esploraUrl, network: config.chain.network });
  }
}
