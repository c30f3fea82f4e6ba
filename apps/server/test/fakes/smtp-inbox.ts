import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; subject: string; text: string };

export type SmtpInbox = {
  url: string;
  mails: ReceivedMail[];
  /** The first mail to `to` received after `since` mails, waiting for it up to `timeoutMs`. */
  waitForMail(to: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
};

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`)
    .replace(/%(?![0-9A-F]{2})/gi, '%25');
  return decodeURIComponent(bytes);
}

function decodeHeaderWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_match, kind: string, word: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(word, 'base64').toString('utf8')
      : decodeQuotedPrintable(word.replace(/_/g, ' ')),
  );
}

/** Enough MIME for the single-part text mails Rayo sends: headers, transfer encoding, UTF-8. */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  return { to, subject: decodeHeaderWords(header('Subject')), text: text.replace(/\r\n/g, '\n') };
}

/**
 * A real SMTP server on loopback that keeps what it receives; with `dir`, each mail is also
 * written there as JSON so that other processes (Playwright workers) can read it.
 */
export async function startSmtpInbox(options: { port?: number; dir?: string } = {}): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  if (options.dir) await mkdir(options.dir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'), to);
        mails.push(mail);
        const saved = options.dir
          ? writeFile(path.join(options.dir, `${Date.now()}-${mails.length}.json`), JSON.stringify(mail))
          : Promise.resolve();
        saved.then(
          () => {
            for (const wake of waiters) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, { since = 0, timeoutMs = 5000 } = {}) {
      const find = () => mails.slice(since).find((mail) => mail.to.includes(to.toLowerCase()));
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = find();
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, 100);
          waiters.add(wake);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
