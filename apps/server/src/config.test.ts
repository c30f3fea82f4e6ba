import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const SECRET = 'k'.repeat(43);

/** What a production start needs: real backends and secrets of its own. */
const production = {
  NODE_ENV: 'production',
  LIGHTNING_BACKEND: 'lnd',
  LND_REST_URL: 'https://127.0.0.1:8080',
  CHAIN_BACKEND: 'esplora',
  ESPLORA_URL: 'https://127.0.0.1:3000',
  JWT_SECRET: SECRET,
  MFA_ENCRYPTION_KEY: SECRET,
};

describe('loadConfig in production mode', () => {
  it('starts with real backends and secrets of its own, without the demo', () => {
    const config = loadConfig(production);
    expect(config.production).toBe(true);
    expect(config.seedDemo).toBe(false);
    expect(loadConfig({ ...production, NODE_ENV: undefined, RAYO_ENV: 'production' }).production).toBe(true);
  });

  it('refuses devnet, generated secrets and the demo, naming each', () => {
    const start = () => loadConfig({ RAYO_ENV: 'production', SEED_DEMO: 'true', WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true' });
    expect(start).toThrow(/^Rayo does not start in production mode/);
    const message = (() => {
      try {
        start();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const problem of [
      'LIGHTNING_BACKEND is devnet',
      'CHAIN_BACKEND is devnet',
      'JWT_SECRET is not set',
      'MFA_ENCRYPTION_KEY is not set',
      'SEED_DEMO is on',
      'WEBHOOK_ALLOW_PRIVATE_HOSTS is on',
    ]) {
      expect(message).toContain(problem);
    }
    expect(() => loadConfig({ ...production, LIGHTNING_BACKEND: 'devnet' })).toThrow(/LIGHTNING_BACKEND is devnet/);
    expect(() => loadConfig({ ...production, SEED_DEMO: 'true' })).toThrow(/SEED_DEMO is on/);
  });

  it('keeps the demo and generated secrets outside production mode', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.production).toBe(false);
    expect(config.seedDemo).toBe(true);
    expect(config.jwtSecret).toBeUndefined();
  });
});

describe('secrets from files (*_FILE)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rayo-secrets-'));
    await writeFile(path.join(dir, 'jwt'), `${SECRET}\n`);
    await writeFile(path.join(dir, 'xprv'), 'tprv8ZgxMBicQKsPd\n');
    await writeFile(path.join(dir, 'empty'), '');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads each secret from its file, without the trailing newline', () => {
    const config = loadConfig({
      ...production,
      JWT_SECRET: undefined,
      JWT_SECRET_FILE: path.join(dir, 'jwt'),
      CHAIN_PAYOUT_XPRV_FILE: path.join(dir, 'xprv'),
    });
    expect(config.jwtSecret).toBe(SECRET);
    expect(config.chain.payoutXprv).toBe('tprv8ZgxMBicQKsPd');
  });

  it('refuses a file it cannot read, an empty one, and a secret given both ways', () => {
    expect(() => loadConfig({ JWT_SECRET_FILE: path.join(dir, 'missing') })).toThrow(
      /JWT_SECRET_FILE: cannot read .*missing \(ENOENT\)/,
    );
    expect(() => loadConfig({ CLN_RUNE_FILE: path.join(dir, 'empty') })).toThrow(/CLN_RUNE_FILE: .* is empty/);
    expect(() => loadConfig({ JWT_SECRET: SECRET, JWT_SECRET_FILE: path.join(dir, 'jwt') })).toThrow(
      /JWT_SECRET and JWT_SECRET_FILE are both set/,
    );
  });
});

describe('DATABASE_READ_URL', () => {
  const primary = 'postgres://rayo:secret@db.example:5432/rayo';
  const replica = 'postgres://rayo:secret@replica.example:5432/rayo';

  it('reads a replica of DATABASE_URL, and none when unset', () => {
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: replica }).databaseReadUrl).toBe(replica);
    expect(loadConfig({ DATABASE_URL: primary }).databaseReadUrl).toBeUndefined();
  });

  it('refuses a replica without the primary it follows', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: replica })).toThrow(/DATABASE_READ_URL is set without DATABASE_URL/);
  });
});
