import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

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
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const [, , width = 0, height = 0] = page.view;
    sizes.push({ width, height });
    const content = await page.getTextContent();
    const lines: string[] = [];
    let line = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      line += item.str;
      if (item.hasEOL) {
        lines.push(line);
        line = '';
      }
    }
    if (line) lines.push(line);
    text.push(lines.join('\n'));
  }
  const metadata = await document.getMetadata();
  const info = metadata.info as { Title?: string; Language?: string };
  const pages = document.numPages;
  await loading.destroy();
  return { pages, text, title: info.Title, language: info.Language, sizes };
}
