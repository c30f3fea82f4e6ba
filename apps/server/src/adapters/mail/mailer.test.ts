import type { ErrorResponse } from '@rayo/shared';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

const LINK = 'http://127.0.0.1:9999/onboard?code=SECRET-CODE';
const mail = { to: 'owner@shop.example', subject: 'Confirm your email for Rayo', text: `Open:\n${LINK}` };

function mailerWithLog(backend: 'devnet' | 'lnd') {
  const logged: string[] = [];
  const log = pino({ level: 'trace' }, { write: (line) => void logged.push(line) });
  const mailer = createMailer(
    { smtpUrl: undefined, mailFrom: 'Rayo <no-reply@rayo.local>', lightning: { backend } },
    log,
  );
  return { mailer, logged };
}

describe('mail without SMTP_URL', () => {
  it('is refused outside devnet, and nothing of it is logged but the fact', async () => {
    const { mailer, logged } = mailerWithLog('lnd');
    const error = await mailer.send(mail).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: 'ServiceUnavailable' } satisfies Partial<ErrorResponse>);
    const log = logged.join('');
    expect(log).toContain('mail not sent; set SMTP_URL to send mail');
    expect(log).not.toContain('SECRET-CODE');
    expect(log).not.toContain(mail.subject);
  });

  it('is printed to the log on devnet, link included', async () => {
    const { mailer, logged } = mailerWithLog('devnet');
    await mailer.send(mail);
    expect(logged.join('')).toContain(LINK);
  });
});
