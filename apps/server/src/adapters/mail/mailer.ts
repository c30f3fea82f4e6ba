import { AppError } from '@rayo/shared';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export type MailMessage = { to: string; subject: string; text: string };

export type Mailer = {
  send(message: MailMessage): Promise<void>;
  close(): void;
};

/**
 * SMTP when `smtpUrl` is set (nodemailer); otherwise every mail, links included, is written to
 * the log, so sign-up and password reset work on a machine without a mail server.
 */
export function createMailer(
  config: { smtpUrl: string | undefined; mailFrom: string },
  log: FastifyBaseLogger,
): Mailer {
  if (!config.smtpUrl) {
    return {
      async send(message) {
        log.info({ mail: message }, `mail to ${message.to}: ${message.subject}\n${message.text}`);
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
        log.error({ err: error, to: message.to }, 'mail could not be sent');
        throw new AppError('ServiceUnavailable', 'The email could not be sent, please try again later');
      }
    },
    close: () => transport.close(),
  };
}
