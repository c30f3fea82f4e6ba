import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** pdf.js's own copies of the standard fonts, which it reads to measure text in PDFs that do not embed them. */
const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

export type PdfReading = {
  pages: number;
  /** Each page's text, its lines in reading order. */
  text: string[];
  title: string | undefined;
  language: string | undefined;
  /** Each page's size in points. */
  sizes: { width: number; height: number }[];
  /** Each page's pieces of text, with where they start and end across the page, in points. */
  spans: { str: string; left: number; right: number }[][];
  /** How many images each page paints. */
  images: number[];
};

/**
 * Reads a PDF with Mozilla's pdf.js, a reader written by nobody here, so that a test checks what
 * any viewer would show rather than what our writer meant to write.
 */
export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
  const loading = getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl,
    useSystemFonts: false,
  });
  const document = await loading.promise;
  const text: string[] = [];
  const sizes: PdfReading['sizes'] = [];
  const spans: PdfReading['spans'] = [];
  const images: number[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const [, , width = 0, height = 0] = page.view;
    sizes.push({ width, height });
    const content = await page.getTextContent();
    const lines: string[] = [];
    const pageSpans: PdfReading['spans'][number] = [];
    let line = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const left = Number(item.transform[4]);
      if (item.str.trim()) pageSpans.push({ str: item.str, left, right: left + item.width });
      line += item.str;
      if (item.hasEOL) {
        lines.push(line);
        line = '';
      }
    }
    if (line) lines.push(line);
    text.push(lines.join('\n'));
    spans.push(pageSpans);
    const operators = await page.getOperatorList();
    images.push(operators.fnArray.filter((fn) => fn === OPS.paintImageXObject).length);
  }
  const metadata = await document.getMetadata();
  const info = metadata.info as { Title?: string; Language?: string };
  const pages = document.numPages;
  await loading.destroy();
  return { pages, text, title: info.Title, language: info.Language, sizes, spans, images };
}
