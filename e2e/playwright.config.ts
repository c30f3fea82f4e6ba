import { defineConfig, devices } from '@playwright/test';

// Overridable so that two runs on one machine do not share a port or a data directory.
const PORT = Number(process.env.E2E_PORT ?? 8097);
const PG_PORT = process.env.E2E_PG_PORT ?? '5497';
/** A spec that needs a server of its own, started with other settings, takes these plus 3. */
export const E2E_PORT = PORT;
export const E2E_PG_PORT = Number(PG_PORT);
const DATA_DIR = process.env.E2E_DATA_DIR ?? '.data/e2e';
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2597);
/** Where the e2e mail inbox writes what Rayo sends, relative to the repository root. */
export const E2E_MAIL_DIR = `${DATA_DIR}-mail`;
/** The server's data directory, relative to the repository root: its PostgreSQL is reachable from there. */
export const E2E_DATA_DIR = DATA_DIR;
export const E2E_JWT_SECRET = 'e2e-only-signing-secret-0123456789abcdef';
/** The shops spec's Shopify and Ecwid stand-ins listen on these, inside the test process. */
export const E2E_SHOPIFY_PORT = Number(process.env.E2E_SHOPIFY_PORT ?? PORT + 1);
export const E2E_ECWID_PORT = Number(process.env.E2E_ECWID_PORT ?? PORT + 2);
/** Ecwid's CDN, answered by the shops spec's `page.route`: nothing is downloaded. */
export const E2E_ECWID_CDN = 'http://ecwid-cdn.invalid';

export default defineConfig({
  testDir: './tests',
  // After the web server is up: the inbox, then the demo's sales, which Rayo records after it is ready.
  globalSetup: ['./mail-inbox.ts', './demo-data-ready.ts'],
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  // Two browsers, the server and its PostgreSQL share two cores: a journey of a few dozen steps
  // then takes 40 s, and a step that waits on the server 5 s or more, with nothing wrong.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // This machine's network is closed; keep Chromium from trying to reach Google's services.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // A fresh embedded database for every run, seeded with the demo organization.
    command: `rm -rf ../${DATA_DIR} && exec node ../apps/server/src/main.ts`,
    url: `http://127.0.0.1:${PORT}/api/ready`,
    reuseExistingServer: false,
    timeout: 120_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: String(PORT),
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      HOST: '127.0.0.1',
      DATA_DIR,
      EMBEDDED_PG_PORT: PG_PORT,
      JWT_SECRET: E2E_JWT_SECRET,
      SIGNIN_LIMIT_PER_IP: '10000',
      SIGNIN_LIMIT_PER_EMAIL: '10000',
      // One browser on one address walks every journey in a row, far past what a visitor asks.
      REQUEST_BUDGET_ANONYMOUS_BURST: '100000',
      REQUEST_BUDGET_SIGNED_IN_BURST: '100000',
      LOG_LEVEL: 'warn',
      // Short-lived invoices, so that checkouts renew theirs within a journey; not shorter, since on
      // a loaded machine paying from the devnet wallet page can take half a minute. The expiry
      // journey does not wait for one: it asks the devnet node to let its invoice run out.
      INVOICE_EXPIRY_SECONDS: '60',
      // The on-chain journeys wait for the chain watch after every block they mine (2 s on devnet).
      CHAIN_POLL_SECONDS: '1',
      // The payout settings spec serves Lightning addresses on 127.0.0.1.
      LNURL_ALLOW_PRIVATE_HOSTS: 'true',
      // The webhooks spec's receiver listens on 127.0.0.1, over plain HTTP.
      WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
      // The shops spec's Shopify and Ecwid stand-ins (reached under WEBHOOK_ALLOW_PRIVATE_HOSTS).
      SHOPIFY_SHOP_URL: `http://127.0.0.1:${E2E_SHOPIFY_PORT}/{shop}`,
      ECWID_API_URL: `http://127.0.0.1:${E2E_ECWID_PORT}`,
      ECWID_SDK_URL: `${E2E_ECWID_CDN}/ecwid-sdk/js/1.3.0/ecwid-app.js`,
      ECWID_CSS_URL: `${E2E_ECWID_CDN}/ecwid-sdk/css/1.3.19/ecwid-app-ui.css`,
      ECWID_APP_ID: 'rayo-e2e',
    },
  },
});
