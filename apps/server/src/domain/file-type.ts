/**
 * What a file is, read from its first bytes (its magic number), never from the name or the
 * Content-Type the client sent: either can say anything. `svg` is recognised only so that its
 * refusal can say why; SVG is never accepted (see docs/decisions/0026-branding-kyb-checkout-protection.md).
 */
export type SniffedType = 'image/png' | 'image/jpeg' | 'application/pdf' | 'image/svg+xml';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);
}

/** An XML or SVG document: text whose first markup, after a BOM, blanks and comments, is `<?xml`, `<!DOCTYPE svg` or `<svg`. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 4096))
    .replace(/^\ufeff/, '')
    .replace(/^(\s|<!--[\s\S]*?-->)*/, '')
    .toLowerCase();
  return head.startsWith('<?xml') || head.startsWith('<!doctype svg') || head.startsWith('<svg');
}

export function sniffFileType(bytes: Uint8Array): SniffedType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, PDF)) return 'application/pdf';
  if (looksLikeSvg(bytes)) return 'image/svg+xml';
  return undefined;
}
