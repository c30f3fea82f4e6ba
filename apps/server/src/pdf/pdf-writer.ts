import PDFDocument from 'pdfkit';

/**
 * The one PDF writer of the server: documents are described as a list of blocks, and this file
 * alone knows pdfkit. It writes with the PDF standard fonts (Helvetica), whose metrics ship inside
 * pdfkit and whose WinAnsi encoding covers Spanish (á é í ó ú ñ ¿ ¡) and the currency signs the
 * product uses (€ £ ¥ ₡ is not among them: see `toWinAnsi`), so nothing is fetched or embedded.
 */

/** One line of a table: the cells in column order. */
export type PdfTableRow = readonly string[];

export type PdfColumn = {
  header: string;
  /** Share of the line's width, relative to the other columns' weights. */
  weight?: number;
  align?: 'left' | 'right';
};

export type PdfBlock =
  | { kind: 'title'; text: string; align?: 'left' | 'center' }
  | { kind: 'text'; text: string; size?: number; bold?: boolean; align?: 'left' | 'center' | 'right'; muted?: boolean }
  /** A label at the left and its value at the right of the same line. */
  | { kind: 'pair'; label: string; value: string; bold?: boolean }
  | { kind: 'table'; columns: readonly PdfColumn[]; rows: readonly PdfTableRow[]; total?: PdfTableRow }
  | { kind: 'rule' }
  | { kind: 'space'; height: number }
  /** A PNG or JPEG, scaled to fit `height` points high and the line's width. */
  | { kind: 'image'; data: Buffer; height: number; align?: 'left' | 'center' };

/**
 * `a4`: pages of A4, as many as the blocks need. `roll-80mm`: one page 80 mm wide and as long as
 * the blocks, for thermal receipt printers (72 mm printable, so 4 mm margins).
 */
export type PdfPage = 'a4' | 'roll-80mm';

export type PdfDocumentSpec = {
  page: PdfPage;
  /** The document's title in its metadata, which viewers show as the window's title. */
  title: string;
  /** BCP 47 language of the text, for screen readers and text extraction. */
  language: string;
  blocks: readonly PdfBlock[];
};

const MM = 72 / 25.4;
const ROLL_WIDTH = 80 * MM;
/** The largest page side readers accept (PDF 1.7 annex C). */
const MAX_PAGE_SIDE = 14_400;

const LAYOUT: Record<PdfPage, { margin: number; size: number; titleSize: number; gap: number }> = {
  a4: { margin: 48, size: 10, titleSize: 16, gap: 4 },
  'roll-80mm': { margin: 4 * MM, size: 8.5, titleSize: 12, gap: 2.5 },
};

const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const MUTED = '#555555';
const INK = '#000000';

/**
 * The standard fonts encode text in WinAnsi (Windows-1252): characters outside it would be written
 * as wrong glyphs, so they are replaced by the nearest it has, or by "?". Narrow no-break spaces,
 * which `Intl.NumberFormat` puts between figures and some currency signs, become plain spaces.
 */
export function toWinAnsi(text: string): string {
  return text
    .replace(/[\u202F\u2007\u2009]/g, ' ')
    .replace(/\u2212/g, '-')
    .replace(/[^\n\u0020-\u007E\u00A0-\u00FF€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu, '?');
}

type Doc = PDFKit.PDFDocument;

function lineWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** Starts a new page when `height` more points do not fit on this one (A4 only; a roll grows). */
function makeRoom(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function columnWidths(total: number, columns: readonly PdfColumn[]): number[] {
  const weights = columns.map((column) => column.weight ?? 1);
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((weight) => (total * weight) / sum);
}

function drawRow(doc: Doc, cells: PdfTableRow, columns: readonly PdfColumn[], widths: number[], font: string): void {
  const left = doc.page.margins.left;
  doc.font(font);
  const height = Math.max(
    ...cells.map((cell, i) => doc.heightOfString(toWinAnsi(cell), { width: (widths[i] ?? 0) - 2 })),
  );
  makeRoom(doc, height);
  const top = doc.y;
  let x = left;
  cells.forEach((cell, i) => {
    const width = widths[i] ?? 0;
    doc.text(toWinAnsi(cell), x, top, { width: width - 2, align: columns[i]?.align ?? 'left' });
    x += width;
  });
  doc.x = left;
  doc.y = top + height;
}

function drawBlock(doc: Doc, block: PdfBlock, page: PdfPage): void {
  const layout = LAYOUT[page];
  const left = doc.page.margins.left;
  const width = lineWidth(doc);
  doc.fillColor(INK).fontSize(layout.size).font(FONT);
  switch (block.kind) {
    case 'title':
      doc.font(BOLD).fontSize(layout.titleSize);
      makeRoom(doc, doc.heightOfString(toWinAnsi(block.text), { width }));
      doc.text(toWinAnsi(block.text), left, doc.y, { width, align: block.align ?? 'left' });
      break;
    case 'text': {
      doc.font(block.bold ? BOLD : FONT).fontSize(block.size ?? layout.size);
      if (block.muted) doc.fillColor(MUTED);
      makeRoom(doc, doc.heightOfString(toWinAnsi(block.text), { width }));
      doc.text(toWinAnsi(block.text), left, doc.y, { width, align: block.align ?? 'left' });
      break;
    }
    case 'pair': {
      const font = block.bold ? BOLD : FONT;
      doc.font(font);
      const value = toWinAnsi(block.value);
      const valueWidth = Math.min(doc.widthOfString(value) + 1, width * 0.62);
      const labelWidth = width - valueWidth - 4;
      const label = toWinAnsi(block.label);
      const height = Math.max(
        doc.heightOfString(label, { width: labelWidth }),
        doc.heightOfString(value, { width: valueWidth }),
      );
      makeRoom(doc, height);
      const top = doc.y;
      doc.text(label, left, top, { width: labelWidth });
      doc.text(value, left + width - valueWidth, top, { width: valueWidth, align: 'right' });
      doc.x = left;
      doc.y = top + height;
      break;
    }
    case 'table': {
      const widths = columnWidths(width, block.columns);
      drawRow(
        doc,
        block.columns.map((column) => column.header),
        block.columns,
        widths,
        BOLD,
      );
      doc.moveDown(0.2);
      for (const row of block.rows) drawRow(doc, row, block.columns, widths, FONT);
      if (block.total) {
        drawBlock(doc, { kind: 'rule' }, page);
        drawRow(doc, block.total, block.columns, widths, BOLD);
      }
      break;
    }
    case 'rule': {
      makeRoom(doc, layout.gap * 2);
      const y = doc.y + layout.gap;
      doc
        .moveTo(left, y)
        .lineTo(left + width, y)
        .lineWidth(0.5)
        .dash(2, { space: 1.5 })
        .strokeColor(INK)
        .stroke()
        .undash();
      doc.y = y + layout.gap;
      break;
    }
    case 'space':
      doc.y += block.height;
      break;
    case 'image': {
      makeRoom(doc, block.height);
      const top = doc.y;
      doc.image(block.data, left, top, {
        fit: [width, block.height],
        // Without `align` pdfkit puts the image at the left.
        ...(block.align === 'left' ? {} : { align: 'center' as const }),
        valign: 'center',
      });
      doc.x = left;
      doc.y = top + block.height;
      break;
    }
  }
  doc.y += layout.gap;
}

function layOut(doc: Doc, spec: PdfDocumentSpec): void {
  for (const block of spec.blocks) drawBlock(doc, block, spec.page);
}

function newDocument(spec: PdfDocumentSpec, size: [number, number] | 'A4'): Doc {
  const margin = LAYOUT[spec.page].margin;
  return new PDFDocument({
    size,
    margin,
    lang: spec.language,
    displayTitle: true,
    info: { Title: toWinAnsi(spec.title), Creator: 'Rayo', Producer: 'Rayo' },
    bufferPages: false,
  });
}

function collect(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/**
 * The height a roll needs for the blocks: they are laid out once on a page as long as PDF allows
 * and measured, then written on a page of that height.
 */
function rollHeight(spec: PdfDocumentSpec): number {
  const probe = newDocument(spec, [ROLL_WIDTH, MAX_PAGE_SIDE]);
  layOut(probe, spec);
  const height = Math.ceil(probe.y + probe.page.margins.bottom);
  probe.end();
  return Math.min(height, MAX_PAGE_SIDE);
}

/** Writes the document and answers its bytes. */
export async function renderPdf(spec: PdfDocumentSpec): Promise<Buffer> {
  const doc = spec.page === 'a4' ? newDocument(spec, 'A4') : newDocument(spec, [ROLL_WIDTH, rollHeight(spec)]);
  const bytes = collect(doc);
  layOut(doc, spec);
  doc.end();
  return bytes;
}
