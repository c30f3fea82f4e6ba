import type { Readable } from 'node:stream';
// For its FastifyRequest additions (isMultipart, parts), which this file uses wherever it is compiled from.
import type {} from '@fastify/multipart';
import { AppError } from '@rayo/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type Upload = { fileName: string; bytes: Buffer };

const MAX_FILE_NAME = 200;

/**
 * The name a person gave the file, fit to show and store: its last path segment, without
 * control characters or unpaired surrogates (which PostgreSQL refuses), and not too long.
 */
export function cleanFileName(raw: string | undefined, fallback: string): string {
  const name = (raw ?? '')
    .toWellFormed()
    .split(/[\\/]/)
    .pop()
    ?.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '')
    .trim()
    .slice(0, MAX_FILE_NAME);
  return name || fallback;
}

type MultipartError = Error & { code?: string };

function refusalOf(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error;
  const code = (error as MultipartError | undefined)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('FileTooLarge', `The file is larger than ${Math.floor(maxBytes / 1024)} KB`);
  }
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('InvalidInput', 'Send one file, in a field named "file", and nothing else');
  }
  // Busboy's own complaints (a cut-off body, a malformed part header) carry no status.
  return new AppError('InvalidInput', 'The upload is not valid multipart/form-data');
}

/**
 * Reads the one file of a `multipart/form-data` request, refusing it as soon as it passes
 * `maxBytes`, so that at most that much is ever held. Any other part (a field, a second file)
 * is refused too: the caller stores nothing unless this answers.
 */
export async function readSingleUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError('MissingFile', 'Send the file as multipart/form-data, in a field named "file"');
  }
  let upload: Upload | undefined;
  try {
    const parts = request.parts({
      // The plugin is registered with throwFileSizeLimit, so passing fileSize throws FST_REQ_FILE_TOO_LARGE.
      limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 1, fieldNameSize: 100, headerPairs: 20 },
    });
    for await (const part of parts) {
      if (part.type !== 'file' || part.fieldname !== 'file') {
        throw new AppError('InvalidInput', 'Send one file, in a field named "file", and nothing else');
      }
      upload = { fileName: part.filename, bytes: await part.toBuffer() };
    }
  } catch (error) {
    throw refusalOf(error, maxBytes);
  }
  if (!upload || upload.bytes.length === 0)
    throw new AppError('MissingFile', 'The request holds no file, or an empty one');
  return upload;
}

/**
 * A Content-Disposition that makes the browser save the file under its name: an ASCII fallback
 * with quotes and backslashes replaced, and the real name in RFC 5987 form.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Sends a stored document to be saved under its name, never shown in our origin: no sniffing,
 * no script, no caching.
 */
export function sendStoredDocument(
  reply: FastifyReply,
  document: { contentType: string; fileName: string; bytes: Uint8Array },
): FastifyReply {
  return reply
    .header('content-type', document.contentType)
    .header('content-disposition', attachmentDisposition(document.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .send(document.bytes);
}

/**
 * Streams a CSV export as a download; a client that goes away mid-download stops the stream,
 * and with it the COPY that feeds it, freeing its connection.
 */
export function sendCsvStream(reply: FastifyReply, csv: { filename: string; stream: Readable }): FastifyReply {
  reply.raw.on('close', () => {
    if (!csv.stream.readableEnded) csv.stream.destroy();
  });
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.filename}"`)
    .send(csv.stream);
}
