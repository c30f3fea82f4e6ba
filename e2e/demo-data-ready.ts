import type { FullConfig } from '@playwright/test';
import { type Readiness, ReadinessSchema } from '@rayo/shared';

/** A year of demo sales on a busy machine: with several test runs sharing two cores it took over 240 s. */
const DEMO_DATA_TIMEOUT_MS = 600_000;

/**
 * Rayo answers as soon as it serves and records the demo's sales after; the journeys read those
 * sales, so they start once `/api/ready` says the demo data is ready. Global setup runs after
 * Playwright's web server is up.
 */
export default async function waitForDemoData(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error('No baseURL to wait on');
  const deadline = Date.now() + DEMO_DATA_TIMEOUT_MS;
  let last: Readiness | undefined;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseURL}/api/ready`).catch(() => undefined);
    last = response?.ok ? ReadinessSchema.parse(await response.json()) : undefined;
    if (last && last.demoData !== 'preparing') return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The demo data was not ready after ${DEMO_DATA_TIMEOUT_MS / 1000} s: ${JSON.stringify(last)}`);
}
