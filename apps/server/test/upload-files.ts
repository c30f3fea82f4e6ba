import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of `size`×`size` pixels of one colour; `padding` adds random bytes in a text chunk. */
export function tinyPng(rgb: [number, number, number] = [230, 120, 20], size = 4, padding = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(padding > 0 ? [chunk('tEXt', Buffer.concat([Buffer.from('pad\0'), randomBytes(padding)]))] : []),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The start of a JPEG: its magic number is what the server reads. */
export function jpegHead(): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), randomBytes(64)]);
}

/** A minimal one-page PDF. */
export function tinyPdf(text = 'KYB'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}

export type Part = { name: string; fileName?: string; contentType?: string; data: Buffer | string };

/** A multipart/form-data body for `app.inject`, with the parts exactly as given. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----rayo${randomBytes(8).toString('hex')}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.fileName === undefined ? '' : `; filename="${part.fileName}"`}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`;
    pieces.push(Buffer.from(head), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(pieces), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** One file in the field "file", as the web app sends it. */
export function fileUpload(data: Buffer | string, fileName = 'file.bin', contentType = 'application/octet-stream') {
  return multipart([{ name: 'file', fileName, contentType, data }]);
}
