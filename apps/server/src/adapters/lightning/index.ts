import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Config, repoRoot } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { createClnBackend } from './cln.ts';
import { createDevnetBackend } from './devnet.ts';
import { createLndBackend } from './lnd.ts';
import { type LightningBackend, LightningBackendError } from './types.ts';

type Log = { warn: (details: object, message: string) => void };

/**
 * The Lightning backend the configuration names (DESIGN §5). `database.url` is the connection
 * string of `database.db`, for the connections a backend holds of its own (devnet's LISTEN).
 * Every dropped settlement stream is logged before the backend retries it. A backend that cannot
 * be used (configuration, node, certificate, credentials) is a LightningBackendError that says why.
 */
export async function createLightningBackend(
  config: Pick<Config, 'lightning'>,
  database: { db: Db; url: string },
  log: Log,
): Promise<LightningBackend> {
  const onStreamError = (error: LightningBackendError, retryInMs: number) =>
    log.warn({ err: error, retryInMs }, 'Lightning settlement stream interrupted; retrying');
  const onWarning = (message: string) => log.warn({}, message);
  switch (config.lightning.backend) {
    case 'devnet':
      return createDevnetBackend(database.db, {
        databaseUrl: database.url,
        onStreamError,
        onSignerLost: (error) => log.warn({ err: error }, 'devnet signing thread lost; signing on the event loop'),
      });
    case 'lnd':
      return createLndBackend({
        ...(await lndOptions(config.lightning)),
        onStreamError,
        onWarning,
      });
    case 'cln':
      return createClnBackend({ ...(await clnOptions(config.lightning)), onStreamError, onWarning });
  }
}

type LightningConfig = Config['lightning'];

function required(value: string | undefined, variable: string, backend: string): string {
  if (value === undefined) {
    throw new LightningBackendError(`${variable} must be set when LIGHTNING_BACKEND=${backend}`);
  }
  return value;
}

/** Reads a file the configuration names; relative paths start at the repository root, like the others. */
async function readConfiguredFile(file: string, variable: string): Promise<Buffer> {
  try {
    return await readFile(path.resolve(repoRoot, file));
  } catch (error) {
    throw new LightningBackendError(`${variable} names a file that cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

async function lndOptions(lightning: LightningConfig) {
  const restUrl = required(lightning.lndRestUrl, 'LND_REST_URL', 'lnd');
  const macaroonHex =
    lightning.lndMacaroonHex ??
    (lightning.lndMacaroonPath === undefined
      ? undefined
      : (await readConfiguredFile(lightning.lndMacaroonPath, 'LND_MACAROON_PATH')).toString('hex'));
  if (macaroonHex === undefined)
    throw new LightningBackendError('LND_MACAROON_HEX or LND_MACAROON_PATH must be set when LIGHTNING_BACKEND=lnd');
  const tlsCertPem =
    lightning.lndTlsCertPath === undefined
      ? undefined
      : (await readConfiguredFile(lightning.lndTlsCertPath, 'LND_TLS_CERT_PATH')).toString('utf8');
  return { restUrl, macaroonHex, tlsCertPem };
}

async function clnOptions(lightning: LightningConfig) {
  const restUrl = required(lightning.clnRestUrl, 'CLN_REST_URL', 'cln');
  const rune = required(lightning.clnRune, 'CLN_RUNE', 'cln');
  const tlsCaPem =
    lightning.clnTlsCaPath === undefined
      ? undefined
      : (await readConfiguredFile(lightning.clnTlsCaPath, 'CLN_TLS_CA_PATH')).toString('utf8');
  return { restUrl, rune, tlsCaPem };
}
