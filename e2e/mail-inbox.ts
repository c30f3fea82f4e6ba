import { rm } from 'node:fs/promises';
import path from 'node:path';
import { startSmtpInbox } from '../apps/server/test/fakes/smtp-inbox.ts';
import { E2E_MAIL_DIR, E2E_SMTP_PORT } from './playwright.config.ts';

/**
 * The SMTP server Rayo's mail goes to during e2e: the server tests' loopback inbox, writing each
 * mail to a directory the test workers read. Each run starts with an empty one.
 */
export default async function startMailInbox(): Promise<() => Promise<void>> {
  const dir = path.resolve(import.meta.dirname, '..', E2E_MAIL_DIR);
  await rm(dir, { recursive: true, force: true });
  const inbox = await startSmtpInbox({ port: E2E_SMTP_PORT, dir });
  return () => inbox.close();
}
