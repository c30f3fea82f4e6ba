import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export type ReceivedAttachment = { filename: string; contentType: string; content: Buffer };

export type ReceivedMail = {
  to: string[];
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part, when the mail has one. */
  html?: string;
  attachments: ReceivedAttachment[];
  /** Every header field of the mail, names in lower case, folded lines joined. */
  headers: Record<string, string>;
};

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

function headersOf(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, ' ');
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return Buffer.from(decodeQuotedPrintable(body), 'utf8');
  return Buffer.from(body, 'utf8');
}

function parameterOf(field: string, name: string): string | undefined {
  const match = new RegExp(`${name}="?([^";]+)"?`, 'i').exec(field);
  return match?.[1] ? decodeHeaderWords(match[1]) : undefined;
}

type Part = { headers: Record<string, string>; content: Buffer };

/** The leaf parts of a MIME entity, multiparts opened recursively (RFC 2046 §5.1). */
function leafParts(raw: string): Part[] {
  const { headers, body } = headersOf(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = parameterOf(type, 'boundary');
  if (!/^multipart\//i.test(type) || !boundary) {
    return [{ headers, content: decodeBody(body, (headers['content-transfer-encoding'] ?? '').toLowerCase()) }];
  }
  const delimiter = `--${boundary}`;
  const sections = body.split(new RegExp(`\r?\n?${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  // Before the first delimiter is the preamble, after the closing one (`--`) the epilogue.
  return sections
    .slice(1)
    .filter((section) => !section.startsWith('--'))
    .flatMap((section) => leafParts(section.replace(/^[ \t]*\r?\n/, '')));
}

/** Enough MIME for the mails Rayo sends: headers, multiparts, transfer encodings, UTF-8, attachments. */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const { headers } = headersOf(raw);
  let text = '';
  let html: string | undefined;
  const attachments: ReceivedAttachment[] = [];
  for (const part of leafParts(raw)) {
    const type = part.headers['content-type'] ?? 'text/plain';
    const disposition = part.headers['content-disposition'] ?? '';
    const filename = parameterOf(disposition, 'filename') ?? parameterOf(type, 'name');
    if (/^attachment/i.test(disposition) || filename) {
      attachments.push({ filename: filename ?? '', contentType: type.split(';')[0] ?? '', content: part.content });
    } else if (/^text\/html/i.test(type)) {
      html = part.content.toString('utf8');
    } else if (/^text\/plain/i.test(type) && !text) {
      text = part.content.toString('utf8').replace(/\r\n/g, '\n');
    }
  }
  return {
    to,
    subject: decodeHeaderWords(headers.subject ?? ''),
    text,
    ...(html !== undefined && { html }),
    attachments,
    headers,
  };
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
          ? writeFile(
              path.join(options.dir, `${Date.now()}-${mails.length}.json`),
              JSON.stringify({
                ...mail,
                attachments: mail.attachments.map((file) => ({ ...file, content: file.content.toString('base64') })),
              }),
            )
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
