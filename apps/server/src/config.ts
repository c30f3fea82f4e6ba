import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A token bucket: `burst` requests at once, refilled at `perSecond`. */
export type BudgetRule = { perSecond: number; burst: number };

export type RequestBudgetLimits = {
  /** Per client address (an IPv6 /64 counting as one), for requests without a valid access token. */
  anonymous: BudgetRule;
  /** Per signed-in user, whatever address the user calls from. */
  signedIn: BudgetRule;
  /** From this delay of the event loop (ms, its 99th percentile over a second) anonymous work is shed; 0 never. */
  lagMs: number;
  /** While the loop lags: anonymous requests a second, in all, for the callers that have been busy. */
  anonymousShareUnderLag: number;
};

const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const ConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z.string().startsWith('postgres').optional(),
  DATABASE_READ_URL: z.string().startsWith('postgres').optional(),
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5488),
  NODE_ENV: z.string().optional(),
  RAYO_ENV: z.enum(['production', 'development']).optional(),
  SEED_DEMO: booleanFromEnv.optional(),
  JWT_SECRET: z.string().min(32).optional(),
  MFA_ENCRYPTION_KEY: z.string().min(32).optional(),
  BACKOFFICE_MFA_REQUIRED: booleanFromEnv.default(false),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).default(12),
  REFRESH_LIMIT_PER_IP: z.coerce.number().int().min(1).default(60),
  SIGNIN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  SIGNIN_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  SIGNIN_LIMIT_PER_EMAIL_GLOBAL: z.coerce.number().int().min(1).default(100),
  SIGNIN_LIMIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  TRUST_PROXY: z
    .string()
    .transform((value, context) => {
      const trust = parseTrustProxy(value);
      if (trust === undefined) {
        context.addIssue({
          code: 'custom',
          message:
            'give the number of proxies in front of Rayo (e.g. 1) or their addresses (e.g. 127.0.0.1,10.0.0.0/8); ' +
            '"true" would trust an X-Forwarded-For written by anyone',
        });
        return z.NEVER;
      }
      return trust;
    })
    .default(false),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  REQUEST_BUDGET_ANONYMOUS_PER_SECOND: z.coerce.number().positive().default(20),
  REQUEST_BUDGET_ANONYMOUS_BURST: z.coerce.number().int().min(1).default(120),
  REQUEST_BUDGET_SIGNED_IN_PER_SECOND: z.coerce.number().positive().default(100),
  REQUEST_BUDGET_SIGNED_IN_BURST: z.coerce.number().int().min(1).default(600),
  REQUEST_BUDGET_LAG_MS: z.coerce.number().int().min(0).default(100),
  REQUEST_BUDGET_ANONYMOUS_SHARE_UNDER_LAG: z.coerce.number().int().min(1).default(50),
  SUPPORT_EMAIL: z.email().default('support@rayo.local'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//)
    .optional(),
  MAIL_FROM: z.string().min(3).default('Rayo <no-reply@rayo.local>'),
  WEB_DIST_DIR: z.string().default('apps/web/dist'),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).default(0),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(32, 'at least 32 characters, e.g. openssl rand -base64 32').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LIGHTNING_BACKEND: z.enum(['devnet', 'lnd', 'cln']).default('devnet'),
  DEVNET_PUBLIC: booleanFromEnv.default(false),
  LND_REST_URL: z.url().optional(),
  LND_MACAROON_HEX: z
    .string()
    .regex(/^[0-9a-fA-F]+$/)
    .optional(),
  LND_MACAROON_PATH: z.string().optional(),
  LND_TLS_CERT_PATH: z.string().optional(),
  CLN_REST_URL: z.url().optional(),
  CLN_RUNE: z.string().optional(),
  CLN_TLS_CA_PATH: z.string().optional(),
  LIGHTNING_MAX_FEE_PERCENT: z.coerce.number().min(0).max(10).default(0.5),
  RATE_SOURCE: z.enum(['fixed', 'coinbase', 'kraken', 'yadio']).default('fixed'),
  FIXED_RATES: z.string().default('USD=95000,EUR=88000,GTQ=730000,MXN=1750000,ARS=110000000,BRL=520000,COP=380000000'),
  RATE_SOURCE_URL: z.url().optional(),
  RATE_REFRESH_SECONDS: z.coerce.number().int().min(5).default(60),
  RATE_MAX_AGE_SECONDS: z.coerce.number().int().min(10).default(600),
  TX_FEE_PERCENT: z.coerce.number().min(0).max(100).default(1),
  CONVERSION_FEE_PERCENT: z.coerce.number().min(0).max(100).default(1),
  INVOICE_EXPIRY_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .max(86400)
    .default(15 * 60),
  RECONCILE_SECONDS: z.coerce.number().int().min(1).default(30),
  EVENT_STREAM_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  PAYOUT_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
  PAYOUT_MIN_SATS: z.coerce.number().int().min(1).default(1000),
  PAYOUT_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).default(60),
  PAYOUT_ALERT_AFTER_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  PAYOUT_DESTINATION_COOLDOWN_HOURS: z.coerce.number().int().min(0).max(8760).default(48),
  LNURL_ALLOW_PRIVATE_HOSTS: booleanFromEnv.default(false),
  WEBHOOK_ALLOW_PRIVATE_HOSTS: booleanFromEnv.default(false),
  SHOPIFY_SHOP_URL: z
    .string()
    .regex(/^https?:\/\/\S*\{shop\}/, 'an http(s) URL in which {shop} is replaced by the store domain')
    .default('https://{shop}'),
  ECWID_API_URL: z.url().default('https://app.ecwid.com'),
  ECWID_SDK_URL: z.url().default('https://djqizrxa6f10j.cloudfront.net/ecwid-sdk/js/1.3.0/ecwid-app.js'),
  ECWID_CSS_URL: z.url().default('https://d35z3p2poghz10.cloudfront.net/ecwid-sdk/css/1.3.19/ecwid-app-ui.css'),
  ECWID_APP_ID: z.string().trim().min(1).max(100).default('rayo-payments'),
  ECWID_ADMIN_ORIGINS: z.string().default('https://my.ecwid.com,https://my.shopsettings.com'),
  CHAIN_BACKEND: z.enum(['devnet', 'esplora']).default('devnet'),
  ESPLORA_URL: z.url().optional(),
  CHAIN_NETWORK: z.enum(['mainnet', 'testnet', 'signet', 'regtest']).default('mainnet'),
  CHAIN_XPUB: z.string().trim().min(1).max(200).optional(),
  CHAIN_POLL_SECONDS: z.coerce.number().int().min(1).optional(),
  CHAIN_PAYOUT_XPRV: z.string().trim().min(1).max(200).optional(),
  CHAIN_XPUB_ORIGIN: z
    .string()
    .trim()
    .regex(
      /^[0-9a-fA-F]{8}(\/\d+['hH]?)*$/,
      "the master key's fingerprint and the account's path, e.g. d34db33f/84h/0h/0h",
    )
    .optional(),
  CHAIN_PAYOUT_MIN_SATS: z.coerce.number().int().min(546).default(10_000),
  CHAIN_FALLBACK_FEE_RATE: z.coerce.number().int().min(1).max(1000).default(10),
});

export type Config = {
  /** `NODE_ENV` or `RAYO_ENV` is `production`: `loadConfig` refuses what only a demo may use. */
  production: boolean;
  host: string;
  port: number;
  /**
   * Neither PORT nor PUBLIC_URL is set, so nothing outside relies on the default port: when it
   * is taken, Rayo listens on a free one and `publicUrl` follows it (`onHttpPort`).
   */
  portIsDefault: boolean;
  publicUrl: string;
  databaseUrl: string | undefined;
  /** A read-only replica of `databaseUrl` for dashboards, reports and CSV exports (docs/deploy.md). */
  databaseReadUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  seedDemo: boolean;
  jwtSecret: string | undefined;
  /** Key material for sealing TOTP secrets at rest; generated and kept in the database when unset. */
  mfaEncryptionKey: string | undefined;
  /** Back-office staff must turn MFA on before any back-office call (only Settings is open to them until then). */
  backOfficeMfaRequired: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** Life of a refresh token when the user did not ask to be remembered. */
  sessionTtlHours: number;
  /** Refreshes allowed per client address per minute. */
  refreshLimitPerIp: number;
  signInLimitPerIp: number;
  signInLimitPerEmail: number;
  /** Failed sign-ins allowed per email per hour, from every address together. */
  signInLimitPerEmailGlobal: number;
  signInLimitWindowSeconds: number;
  /**
   * Which X-Forwarded-For hops are believed when taking the client address: none, the last N
   * hops, or hops sent by these addresses or ranges (Fastify's `trustProxy`).
   */
  trustProxy: TrustProxy;
  /**
   * How long a client may take to send a request's headers, and the whole request with its
   * body; and how many connections one client address may hold open at once.
   */
  http: { headersTimeoutSeconds: number; requestTimeoutSeconds: number; connectionsPerAddress: number };
  /** How many requests a client may send, before any is read past its headers (`http/request-budget.ts`). */
  requestBudget: RequestBudgetLimits;
  supportEmail: string;
  /** Mail goes through this SMTP server; without it mail is only written to the log, on devnet. */
  smtpUrl: string | undefined;
  mailFrom: string;
  webDistDir: string;
  /**
   * On SIGTERM, how long Rayo keeps serving while /api/ready answers 503, so that a load balancer
   * stops sending it requests before it stops taking them.
   */
  shutdownDrainSeconds: number;
  logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
  /**
   * Prometheus metrics: on a port of their own (`port`, on `host`), and/or at `/metrics` on the
   * application's port for a scraper sending `token`; neither when both are unset.
   */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** The devnet wallet's calls answer every address, not only this machine's. */
  devnetPublic: boolean;
  lightning: {
    backend: 'devnet' | 'lnd' | 'cln';
    lndRestUrl: string | undefined;
    lndMacaroonHex: string | undefined;
    lndMacaroonPath: string | undefined;
    lndTlsCertPath: string | undefined;
    clnRestUrl: string | undefined;
    clnRune: string | undefined;
    clnTlsCaPath: string | undefined;
    /** Basis points of an outgoing payment's amount we accept to pay in routing fees. */
    maxFeeBps: number;
  };
  rates: {
    source: 'fixed' | 'coinbase' | 'kraken' | 'yadio';
    /** `CODE=price of one bitcoin` pairs for the fixed source, e.g. `USD=95000`. */
    fixed: string;
    /** Overrides the source's public base URL (tests point it at a local server). */
    sourceUrl: string | undefined;
    refreshSeconds: number;
    /** A cached rate older than this is not used to price an invoice. */
    maxAgeSeconds: number;
  };
  /** Operator fees in basis points (1% = 100). */
  txFeeBps: number;
  conversionFeeBps: number;
  invoiceExpirySeconds: number;
  reconcileSeconds: number;
  /** How long an event stream stays open once its invoice or checkout expired. */
  eventStreamGraceSeconds: number;
  /** Lightning-address payouts (docs/decisions/0036-lightning-payouts.md). */
  payouts: {
    intervalSeconds: number;
    minMsat: bigint;
    retryBaseSeconds: number;
    alertAfterAttempts: number;
    /** How long a changed payout destination waits, once every admin was mailed, unless back office verifies it. */
    destinationCoolDownHours: number;
  };
  /**
   * Lets LNURL-withdraw reach loopback and private addresses, which a link from the public API
   * must not: for tests and local devnet setups only.
   */
  lnurlAllowPrivateHosts: boolean;
  /**
   * Lets webhook endpoints be plain-HTTP loopback and private addresses, which a merchant-chosen
   * URL must not reach: for tests and local devnet setups only.
   */
  webhookAllowPrivateHosts: boolean;
  shops: {
    /**
     * A Shopify store's origin; `{shop}` becomes its `*.myshopify.com` domain. The token endpoint
     * and the Admin GraphQL endpoint (at the pinned API version) are paths under it.
     */
    shopifyShopUrl: string;
    /** Ecwid's REST API origin (`/api/v3/{storeId}/…` is added). */
    ecwidApiUrl: string;
    /** The Ecwid app SDK and stylesheet the `/ecommerce/ecwid` page loads, and the CSP allows. */
    ecwidSdkUrl: string;
    ecwidCssUrl: string;
    /** The Ecwid app's client id, which `EcwidApp.init` names. */
    ecwidAppId: string;
    /** Origins that may frame `/ecommerce/ecwid` (the Ecwid admin). */
    ecwidAdminOrigins: string[];
  };
  chain: {
    backend: 'devnet' | 'esplora';
    esploraUrl: string | undefined;
    /** The network of an Esplora chain; devnet is always regtest. */
    network: 'mainnet' | 'testnet' | 'signet' | 'regtest';
    /**
     * The platform wallet's account-level extended public key (xpub/zpub/tpub/vpub) that checkout
     * addresses are derived from when the merchant gave none; devnet makes its own.
     */
    xpub: string | undefined;
    /** How often the checkout watcher looks at the chain. */
    pollSeconds: number;
    /**
     * The hot wallet: the extended private key of CHAIN_XPUB's account, which signs on-chain
     * payout batches. Without it a batch waits as a PSBT for the operator's wallet.
     */
    payoutXprv: string | undefined;
    /** `fingerprint/path` of CHAIN_XPUB's account below its master key, written into PSBTs. */
    xpubOrigin: string | undefined;
    /** An organization's on-chain share is paid once its whole sats reach this. */
    payoutMinSats: bigint;
    /** The fee rate (sat/vB) a payout batch pays when the chain source has no estimate. */
    fallbackFeeRate: number;
  };
};

export type TrustProxy = false | number | string[];

/** proxy-addr's names for the address ranges a proxy usually sits in. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `false`/`0`: ignore X-Forwarded-For. A whole number: that many proxies in front of Rayo. Otherwise
 * a comma-separated list of proxy addresses or CIDR ranges. `true` is refused: it would take the
 * client address from the first hop, which the client writes itself.
 */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const text = value.trim();
  if (text === 'false' || text === '0') return false;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : undefined;
}

function percentToBps(percent: number): number {
  return Math.round(percent * 100);
}

function localUrl(port: number): string {
  return `http://localhost:${port}`;
}

/** The configuration for a server that had to move to `port` because its default one is taken. */
export function onHttpPort(config: Config, port: number): Config {
  return { ...config, port, publicUrl: localUrl(port) };
}

/**
 * Secrets that may be given as a file instead (`JWT_SECRET_FILE=/run/credentials/rayo/jwt`), so they
 * need not sit in the environment, which other processes of the same user and crash reports can read.
 */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'JWT_SECRET',
  'MFA_ENCRYPTION_KEY',
  'SMTP_URL',
  'LND_MACAROON_HEX',
  'CLN_RUNE',
  'CHAIN_PAYOUT_XPRV',
  'METRICS_TOKEN',
] as const;

/** The environment with each `NAME_FILE` read into `NAME`; the file's trailing newline is not part of it. */
function withSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const result = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const file = env[`${name}_FILE`];
    if (file === undefined) continue;
    delete result[`${name}_FILE`];
    if (env[name] !== undefined) {
      problems.push(`${name} and ${name}_FILE are both set: keep one`);
      continue;
    }
    try {
      const value = readFileSync(path.resolve(repoRoot, file), 'utf8').replace(/\r?\n$/, '');
      if (value !== '') result[name] = value;
      else problems.push(`${name}_FILE: ${file} is empty`);
    } catch (error) {
      problems.push(`${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
  }
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return result;
}

/** What a production start refuses, each saying what to set instead. */
function productionProblems(c: z.infer<typeof ConfigSchema>): string[] {
  const problems: string[] = [];
  if (c.LIGHTNING_BACKEND === 'devnet') {
    problems.push('LIGHTNING_BACKEND is devnet (test invoices, no real bitcoin): set lnd or cln and its node');
  }
  if (c.CHAIN_BACKEND === 'devnet') {
    problems.push('CHAIN_BACKEND is devnet (a simulated chain): set esplora and ESPLORA_URL');
  }
  if (c.JWT_SECRET === undefined) {
    problems.push(
      'JWT_SECRET is not set, so one would be generated into the database: set JWT_SECRET or JWT_SECRET_FILE',
    );
  }
  if (c.MFA_ENCRYPTION_KEY === undefined) {
    problems.push(
      'MFA_ENCRYPTION_KEY is not set, so one would be generated into the database: set MFA_ENCRYPTION_KEY or MFA_ENCRYPTION_KEY_FILE',
    );
  }
  if (c.SEED_DEMO === true) problems.push('SEED_DEMO is on: unset it, or set it to false');
  if (c.LNURL_ALLOW_PRIVATE_HOSTS) problems.push('LNURL_ALLOW_PRIVATE_HOSTS is on, for tests only: unset it');
  if (c.WEBHOOK_ALLOW_PRIVATE_HOSTS) problems.push('WEBHOOK_ALLOW_PRIVATE_HOSTS is on, for tests only: unset it');
  return problems;
}

/** Reads every setting from the environment once; relative paths are taken from the repository root. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const defined = withSecretFiles(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  const parsed = ConfigSchema.safeParse(defined);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const c = parsed.data;
  if (c.DATABASE_READ_URL !== undefined && c.DATABASE_URL === undefined) {
    throw new Error(
      'Invalid configuration:\n  DATABASE_READ_URL is set without DATABASE_URL: a replica needs the primary it follows in DATABASE_URL',
    );
  }
  const production = c.NODE_ENV === 'production' || c.RAYO_ENV === 'production';
  const refused = production ? productionProblems(c) : [];
  if (refused.length > 0) {
    throw new Error(
      `Rayo does not start in production mode (NODE_ENV or RAYO_ENV is production) with:\n  ${refused.join('\n  ')}\n` +
        'See docs/deploy.md.',
    );
  }
  return {
    production,
    host: c.HOST,
    port: c.PORT,
    portIsDefault: defined.PORT === undefined && c.PUBLIC_URL === undefined,
    publicUrl: c.PUBLIC_URL ?? localUrl(c.PORT),
    databaseUrl: c.DATABASE_URL,
    databaseReadUrl: c.DATABASE_READ_URL,
    dataDir: path.resolve(repoRoot, c.DATA_DIR),
    embeddedPgPort: c.EMBEDDED_PG_PORT,
    // The demo is seeded into an empty embedded database unless told not to; never in production.
    seedDemo: c.SEED_DEMO ?? !production,
    jwtSecret: c.JWT_SECRET,
    mfaEncryptionKey: c.MFA_ENCRYPTION_KEY,
    backOfficeMfaRequired: c.BACKOFFICE_MFA_REQUIRED,
    accessTokenTtlSeconds: c.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: c.REFRESH_TOKEN_TTL_DAYS,
    sessionTtlHours: c.SESSION_TTL_HOURS,
    refreshLimitPerIp: c.REFRESH_LIMIT_PER_IP,
    signInLimitPerIp: c.SIGNIN_LIMIT_PER_IP,
    signInLimitPerEmail: c.SIGNIN_LIMIT_PER_EMAIL,
    signInLimitPerEmailGlobal: c.SIGNIN_LIMIT_PER_EMAIL_GLOBAL,
    signInLimitWindowSeconds: c.SIGNIN_LIMIT_WINDOW_SECONDS,
    trustProxy: c.TRUST_PROXY,
    http: {
      // Node refuses a headers timeout longer than the request's.
      headersTimeoutSeconds: Math.min(c.HTTP_HEADERS_TIMEOUT_SECONDS, c.HTTP_REQUEST_TIMEOUT_SECONDS),
      requestTimeoutSeconds: c.HTTP_REQUEST_TIMEOUT_SECONDS,
      connectionsPerAddress: c.CONNECTIONS_PER_ADDRESS,
    },
    requestBudget: {
      anonymous: { perSecond: c.REQUEST_BUDGET_ANONYMOUS_PER_SECOND, burst: c.REQUEST_BUDGET_ANONYMOUS_BURST },
      signedIn: { perSecond: c.REQUEST_BUDGET_SIGNED_IN_PER_SECOND, burst: c.REQUEST_BUDGET_SIGNED_IN_BURST },
      lagMs: c.REQUEST_BUDGET_LAG_MS,
      anonymousShareUnderLag: c.REQUEST_BUDGET_ANONYMOUS_SHARE_UNDER_LAG,
    },
    supportEmail: c.SUPPORT_EMAIL,
    smtpUrl: c.SMTP_URL,
    mailFrom: c.MAIL_FROM,
    webDistDir: path.resolve(repoRoot, c.WEB_DIST_DIR),
    shutdownDrainSeconds: c.SHUTDOWN_DRAIN_SECONDS,
    logLevel: c.LOG_LEVEL,
    metrics: { port: c.METRICS_PORT, host: c.METRICS_HOST, token: c.METRICS_TOKEN },
    devnetPublic: c.DEVNET_PUBLIC,
    lightning: {
      backend: c.LIGHTNING_BACKEND,
      lndRestUrl: c.LND_REST_URL,
      lndMacaroonHex: c.LND_MACAROON_HEX,
      lndMacaroonPath: c.LND_MACAROON_PATH,
      lndTlsCertPath: c.LND_TLS_CERT_PATH,
      clnRestUrl: c.CLN_REST_URL,
      clnRune: c.CLN_RUNE,
      clnTlsCaPath: c.CLN_TLS_CA_PATH,
      maxFeeBps: percentToBps(c.LIGHTNING_MAX_FEE_PERCENT),
    },
    rates: {
      source: c.RATE_SOURCE,
      fixed: c.FIXED_RATES,
      sourceUrl: c.RATE_SOURCE_URL,
      refreshSeconds: c.RATE_REFRESH_SECONDS,
      maxAgeSeconds: c.RATE_MAX_AGE_SECONDS,
    },
    txFeeBps: percentToBps(c.TX_FEE_PERCENT),
    conversionFeeBps: percentToBps(c.CONVERSION_FEE_PERCENT),
    invoiceExpirySeconds: c.INVOICE_EXPIRY_SECONDS,
    reconcileSeconds: c.RECONCILE_SECONDS,
    eventStreamGraceSeconds: c.EVENT_STREAM_GRACE_SECONDS,
    payouts: {
      intervalSeconds: c.PAYOUT_INTERVAL_SECONDS,
      minMsat: BigInt(c.PAYOUT_MIN_SATS) * 1000n,
      retryBaseSeconds: c.PAYOUT_RETRY_BASE_SECONDS,
      alertAfterAttempts: c.PAYOUT_ALERT_AFTER_ATTEMPTS,
      destinationCoolDownHours: c.PAYOUT_DESTINATION_COOLDOWN_HOURS,
    },
    lnurlAllowPrivateHosts: c.LNURL_ALLOW_PRIVATE_HOSTS,
    webhookAllowPrivateHosts: c.WEBHOOK_ALLOW_PRIVATE_HOSTS,
    shops: {
      shopifyShopUrl: c.SHOPIFY_SHOP_URL,
      ecwidApiUrl: c.ECWID_API_URL.replace(/\/+$/, ''),
      ecwidSdkUrl: c.ECWID_SDK_URL,
      ecwidCssUrl: c.ECWID_CSS_URL,
      ecwidAppId: c.ECWID_APP_ID,
      ecwidAdminOrigins: c.ECWID_ADMIN_ORIGINS.split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    },
    chain: {
      backend: c.CHAIN_BACKEND,
      esploraUrl: c.ESPLORA_URL,
      network: c.CHAIN_BACKEND === 'devnet' ? 'regtest' : c.CHAIN_NETWORK,
      xpub: c.CHAIN_XPUB,
      // Devnet blocks come when someone mines one, so the watcher looks often; a public Esplora
      // answers every few seconds at most before rate-limiting.
      pollSeconds: c.CHAIN_POLL_SECONDS ?? (c.CHAIN_BACKEND === 'devnet' ? 2 : 30),
      payoutXprv: c.CHAIN_PAYOUT_XPRV,
      xpubOrigin: c.CHAIN_XPUB_ORIGIN,
      payoutMinSats: BigInt(c.CHAIN_PAYOUT_MIN_SATS),
      fallbackFeeRate: c.CHAIN_FALLBACK_FEE_RATE,
    },
  };
}
