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
      await transport.sendMail({ from: config.mailFrom, ...message });
    },
    close: () => transport.close(),
  };
}
