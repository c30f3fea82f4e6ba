import { describe, expect, it } from 'vitest';
import { readPdf } from '../../test/pdf-text.ts';
import { type PdfBlock, renderPdf, toWinAnsi } from './pdf-writer.ts';

const MM = 72 / 25.4;

const receiptBlocks: PdfBlock[] = [
  { kind: 'title', text: 'Café Ñandú', align: 'center' },
  { kind: 'text', text: '28 nov 2026, 10:15', align: 'center', muted: true },
  { kind: 'rule' },
  { kind: 'pair', label: 'Importe', value: 'GTQ 1,234.50' },
  { kind: 'pair', label: 'Propina', value: 'EUR 12,00 €' },
  { kind: 'pair', label: 'Total', value: 'GTQ 1,246.50', bold: true },
  {
    kind: 'table',
    columns: [{ header: 'Hora' }, { header: 'Ventas', align: 'right' }, { header: 'Bruto', align: 'right', weight: 2 }],
    rows: [
      ['10:00', '3', 'GTQ 30.00'],
      ['11:00', '1', 'GTQ 5.00'],
    ],
    total: ['Total', '4', 'GTQ 35.00'],
  },
  { kind: 'text', text: '¿Preguntas? ¡Gracias! á é í ó ú ü ñ Ñ' },
];

describe('the PDF writer', () => {
  it('writes Spanish text that an independent reader reads back', async () => {
    const pdf = await renderPdf({
      page: 'roll-80mm',
      title: 'Recibo de Café Ñandú',
      language: 'es-GT',
      blocks: receiptBlocks,
    });
    const read = await readPdf(pdf);
    expect(read.pages).toBe(1);
    const text = read.text[0] ?? '';
    for (const expected of [
      'Café Ñandú',
      'GTQ 1,234.50',
      'EUR 12,00 €',
      'GTQ 1,246.50',
      '¿Preguntas? ¡Gracias! á é í ó ú ü ñ Ñ',
      'GTQ 35.00',
    ]) {
      expect(text).toContain(expected);
    }
    expect(read.title).toBe('Recibo de Café Ñandú');
    expect(read.language).toBe('es-GT');
  });

  it('makes a roll 80 mm wide and as long as its content', async () => {
    const short = await readPdf(
      await renderPdf({ page: 'roll-80mm', title: 'a', language: 'en', blocks: receiptBlocks }),
    );
    const long = await readPdf(
      await renderPdf({ page: 'roll-80mm', title: 'a', language: 'en', blocks: [...receiptBlocks, ...receiptBlocks] }),
    );
    expect(short.sizes[0]?.width).toBeCloseTo(80 * MM, 1);
    expect(long.pages).toBe(1);
    expect(long.sizes[0]?.height ?? 0).toBeGreaterThan((short.sizes[0]?.height ?? 0) + 100);
  });

  it('continues on a new A4 page when one is full', async () => {
    const rows = Array.from(
      { length: 150 },
      (_, i): PdfBlock => ({ kind: 'pair', label: `Línea ${i}`, value: `${i}` }),
    );
    const read = await readPdf(await renderPdf({ page: 'a4', title: 'a', language: 'es', blocks: rows }));
    expect(read.pages).toBeGreaterThan(1);
    expect(read.sizes[0]?.width).toBeCloseTo(595.28, 0);
    expect(read.text.join('\n')).toContain('Línea 149');
  });

  it('writes characters the standard fonts lack as something readable', () => {
    expect(toWinAnsi('1\u202F234,50\u00A0€ ₿ ✓')).toBe('1 234,50\u00A0€ ? ?');
  });
});
