import { AppError } from '@rayo/shared';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';

export type MailMessage = { to: string; subject: string; text: string };

export type Mailer = {
  send(message: MailMessage): Promise<void>;
  close(): void;
};

function notSent(): AppError {
  return new AppError('ServiceUnavailable', 'The email could not be sent, please try again later');
}

/**
 * SMTP when `smtpUrl` is set (nodemailer). Without it, on devnet only, every mail, links
 * included, is written to the log, so sign-up and password reset work on a machine without a
 * mail server. Elsewhere those links would hand accounts to whoever reads the logs, so mail is
 * refused and only the fact is logged.
 */
export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom'> & { lightning: Pick<Config['lightning'], 'backend'> },
  log: FastifyBaseLogger,
): Mailer {
  if (!config.smtpUrl && config.lightning.backend === 'devnet') {
    return {
      async send(message) {
        log.info({ mail: message }, `mail to ${message.to}: ${message.subject}\n${message.text}`);
      },
      close() {},
    };
  }
  if (!config.smtpUrl) {
    return {
      async send(message) {
        log.warn({ to: message.to }, 'mail not sent; set SMTP_URL to send mail');
        throw notSent();
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: config.mailFrom, ...message });
      } catch (error) {
        // Reported, not hidden: the user can ask for the mail again and nothing is lost.
        log.error({ err: error, to: message.to }, 'mail could not be sent; the user is told it failed');
        throw notSent();
      }
    },
    close: () => transport.close(),
  };
}
