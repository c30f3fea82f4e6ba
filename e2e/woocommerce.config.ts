import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';
import { missingPrerequisites, VENDOR_DIR } from './woocommerce/prerequisites.ts';

// The WooCommerce plugin in a real WordPress and WooCommerce (woocommerce/), run by `npm test`
// beside Vitest and before the main e2e run, on the same ports and data directory as that run:
// the two never run at once.

const missing = missingPrerequisites();
if (missing.length > 0) {
  const what = `The real-shop WooCommerce test needs ${missing.join(', ')} (WordPress and WooCommerce from ${VENDOR_DIR}; apt-get install mariadb-server php-cli php-mysql php-curl php-mbstring php-xml php-intl php-zip php-gd).`;
  // On CI the real shop is the proof: a machine without it fails rather than passing untested.
  if (process.env.CI) throw new Error(what);
  console.warn(`\n${'!'.repeat(100)}\nSKIPPED: ${what}\n${'!'.repeat(100)}\n`);
}

const baseServer = Array.isArray(base.webServer) ? base.webServer[0] : base.webServer;

export default defineConfig<{ hpos: boolean }>({
  ...base,
  testDir: './woocommerce',
  // Apart from the main run's results, which Playwright would otherwise clear on starting this one.
  outputDir: './test-results/woocommerce',
  globalSetup: missing.length > 0 ? [] : ['./mail-inbox.ts', './woocommerce/global-setup.ts'],
  // One shop per project, its tests in order: each reads the shop's newest order and delivery.
  fullyParallel: false,
  workers: 1,
  timeout: 300_000,
  projects: [
    { name: 'hpos', use: { ...base.projects?.[0]?.use, hpos: true } },
    { name: 'posts', use: { ...base.projects?.[0]?.use, hpos: false } },
  ],
  webServer:
    missing.length > 0 || !baseServer
      ? undefined
      : {
          ...baseServer,
          env: {
            ...baseServer.env,
            // The shops' merchants sign up; the demo's year of sales would only load the machine.
            SEED_DEMO: 'false',
            // A WooCommerce checkout lasts as long as an invoice: the server's default, so that a
            // slow shop never runs out of time; the expiry test moves the checkout's end instead.
            INVOICE_EXPIRY_SECONDS: '900',
          },
        },
});
