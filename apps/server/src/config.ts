import path from 'node:path';
import { z } from 'zod';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const ConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z.string().startsWith('postgres').optional(),
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5488),
  SEED_DEMO: booleanFromEnv.default(true),
  JWT_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  SIGNIN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  SIGNIN_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  SIGNIN_LIMIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  TRUST_PROXY: booleanFromEnv.default(false),
  SUPPORT_EMAIL: z.email().default('support@rayo.local'),
  WEB_DIST_DIR: z.string().default('apps/web/dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  host: string;
  port: number;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  seedDemo: boolean;
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  signInLimitPerIp: number;
  signInLimitPerEmail: number;
  signInLimitWindowSeconds: number;
  trustProxy: boolean;
  supportEmail: string;
  webDistDir: string;
  logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
};

/** Reads every setting from the environment once; relative paths are taken from the repository root. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = ConfigSchema.safeParse(defined);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const c = parsed.data;
  return {
    host: c.HOST,
    port: c.PORT,
    publicUrl: c.PUBLIC_URL ?? `http://localhost:${c.PORT}`,
    databaseUrl: c.DATABASE_URL,
    dataDir: path.resolve(repoRoot, c.DATA_DIR),
    embeddedPgPort: c.EMBEDDED_PG_PORT,
    seedDemo: c.SEED_DEMO,
    jwtSecret: c.JWT_SECRET,
    accessTokenTtlSeconds: c.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: c.REFRESH_TOKEN_TTL_DAYS,
    signInLimitPerIp: c.SIGNIN_LIMIT_PER_IP,
    signInLimitPerEmail: c.SIGNIN_LIMIT_PER_EMAIL,
    signInLimitWindowSeconds: c.SIGNIN_LIMIT_WINDOW_SECONDS,
    trustProxy: c.TRUST_PROXY,
    supportEmail: c.SUPPORT_EMAIL,
    webDistDir: path.resolve(repoRoot, c.WEB_DIST_DIR),
    logLevel: c.LOG_LEVEL,
  };
}
