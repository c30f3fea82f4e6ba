import { type CloseFigures, closeHourLabel, type DayClose, type Language } from '@rayo/shared';
import { type PdfBlock, type PdfColumn, type PdfTableRow, renderPdf } from '../../pdf/pdf-writer.ts';

const texts = {
  en: {
    title: 'End-of-day close',
    period: (close: DayClose) => (close.from === close.to ? close.from : `${close.from} to ${close.to}`),
    zone: 'Local time',
    total: 'Total',
    noTerminal: 'No terminal',
    byMethod: 'By payment method',
    byHour: 'By hour',
    method: { lightning: 'Lightning', onchain: 'On-chain' },
    runs: { first: '1st', second: '2nd' },
    columns: ['', 'Sales', 'Gross', 'Tips', 'Tax', 'Refunds', 'Fees (sats)', 'Net (sats)'],
  },
  es: {
    title: 'Corte de caja',
    period: (close: DayClose) => (close.from === close.to ? close.from : `${close.from} al ${close.to}`),
    zone: 'Hora local',
    total: 'Total',
    noTerminal: 'Sin terminal',
    byMethod: 'Por método de pago',
    byHour: 'Por hora',
    method: { lightning: 'Lightning', onchain: 'On-chain' },
    runs: { first: '1.ª', second: '2.ª' },
    columns: ['', 'Ventas', 'Bruto', 'Propinas', 'Impuestos', 'Reembolsos', 'Comisiones (sats)', 'Neto (sats)'],
  },
} satisfies Record<Language, unknown>;

function sats(msat: number): string {
  return String(Math.floor(msat / 1000));
}

function row(label: string, figures: CloseFigures): PdfTableRow {
  return [
    label,
    String(figures.count),
    figures.gross,
    figures.tips,
    figures.tax,
    figures.refunds,
    sats(figures.feesMsat),
    sats(figures.netMsat),
  ];
}

/** The close as an A4 PDF through the server's one PDF writer, in the reader's language. */
export function closePdf(organizationName: string, close: DayClose, language: Language): Promise<Buffer> {
  const t = texts[language];
  const columns: PdfColumn[] = t.columns.map((header, i) => ({
    header: i >= 2 && i <= 5 ? `${header} (${close.currency})` : header,
    weight: i === 0 ? 2.2 : 1,
    align: i === 0 ? 'left' : 'right',
  }));
  const accounts: PdfTableRow[] = [];
  for (const account of close.byAccount) {
    accounts.push(row(account.name, account.figures));
    for (const bpt of account.byBpt) accounts.push(row(`  ${bpt.bptId ? bpt.name : t.noTerminal}`, bpt.figures));
  }
  const blocks: PdfBlock[] = [
    { kind: 'title', text: `${t.title} · ${organizationName}` },
    { kind: 'text', text: `${t.period(close)} · ${t.zone}: ${close.timeZone}`, muted: true },
    { kind: 'space', height: 8 },
    { kind: 'table', columns, rows: accounts, total: row(t.total, close.totals) },
    { kind: 'space', height: 12 },
    { kind: 'text', text: t.byMethod, bold: true },
    {
      kind: 'table',
      columns,
      rows: (['lightning', 'onchain'] as const).map((method) => row(t.method[method], close.byMethod[method])),
    },
    { kind: 'space', height: 12 },
    { kind: 'text', text: t.byHour, bold: true },
    {
      kind: 'table',
      columns,
      rows: close.byHour.map((hour) => row(closeHourLabel(hour, t.runs), hour.figures)),
    },
  ];
  return renderPdf({ page: 'a4', title: `${t.title} ${t.period(close)}`, language, blocks });
}
