import { AppError } from '@rayo/shared';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';

export type MailAttachment = { filename: string; contentType: string; content: Buffer | string };

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text`, which stays for mail programs that show plain text. */
  html?: string;
  attachments?: MailAttachment[];
  /**
   * The left part of a Message-ID the caller derives from what the mail is, so that the same
   * mail sent twice carries the same Message-ID; the mailer adds the domain of MAIL_FROM.
   */
  messageId?: string;
  /** Extra header fields, e.g. one that tells a repeated mail apart. */
  headers?: Record<string, string>;
};

export type Mailer = {
  send(message: MailMessage): Promise<void>;
  close(): void;
};

function notSent(): AppError {
  return new AppError('ServiceUnavailable', 'The email could not be sent, please try again later');
}

/** The domain of the sender's address, e.g. `rayo.local` of `Rayo <no-reply@rayo.local>`. */
export function mailDomainOf(from: string): string {
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
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
        const { attachments, ...shown } = message;
        log.info(
          { mail: { ...shown, attachments: attachments?.map((file) => file.filename) } },
          `mail to ${message.to}: ${message.subject}\n${message.text}`,
        );
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
  const domain = mailDomainOf(config.mailFrom);
  return {
    async send({ messageId, ...message }) {
      try {
        await transport.sendMail({
          from: config.mailFrom,
          ...message,
          ...(messageId !== undefined && { messageId: `<${messageId}@${domain}>` }),
        });
      } catch (error) {
        // Reported, not hidden: the user can ask for the mail again and nothing is lost.
        log.error({ err: error, to: message.to }, 'mail could not be sent; the user is told it failed');
        throw notSent();
      }
    },
    close: () => transport.close(),
  };
}
