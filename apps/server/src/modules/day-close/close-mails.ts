import type { CloseFigures, CloseFrequency, DayClose, Language } from '@rayo/shared';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

const texts = {
  en: {
    subject: { daily: 'Daily close', weekly: 'Weekly close', monthly: 'Monthly close' },
    period: (close: DayClose) =>
      close.from === close.to
        ? `${close.from} (${close.timeZone})`
        : `${close.from} to ${close.to} (${close.timeZone})`,
    total: 'All accounts',
    noTerminal: 'No terminal',
    method: { lightning: 'Lightning', onchain: 'On-chain' },
    line: (f: CloseFigures, currency: string) =>
      `${f.count} sales, gross ${f.gross} ${currency} (tips ${f.tips}, tax ${f.tax}), refunds ${f.refunds} ${currency}; ` +
      `${f.grossMsat} msat gross, ${f.feesMsat} msat fees, ${f.refundsMsat} msat refunds, ${f.netMsat} msat net`,
    byMethod: 'By payment method',
    byHour: 'By hour',
    footer: 'Sent by Rayo on the schedule set in Close. The same figures are on screen, as CSV and as PDF.',
  },
  es: {
    subject: { daily: 'Corte de caja diario', weekly: 'Corte de caja semanal', monthly: 'Corte de caja mensual' },
    period: (close: DayClose) =>
      close.from === close.to
        ? `${close.from} (${close.timeZone})`
        : `${close.from} al ${close.to} (${close.timeZone})`,
    total: 'Todas las cuentas',
    noTerminal: 'Sin terminal',
    method: { lightning: 'Lightning', onchain: 'On-chain' },
    line: (f: CloseFigures, currency: string) =>
      `${f.count} ventas, bruto ${f.gross} ${currency} (propinas ${f.tips}, impuestos ${f.tax}), reembolsos ${f.refunds} ${currency}; ` +
      `${f.grossMsat} msat bruto, ${f.feesMsat} msat comisiones, ${f.refundsMsat} msat reembolsos, ${f.netMsat} msat neto`,
    byMethod: 'Por método de pago',
    byHour: 'Por hora',
    footer:
      'Enviado por Rayo según la programación de Corte de caja. Las mismas cifras están en pantalla, en CSV y en PDF.',
  },
} satisfies Record<Language, unknown>;

/** A scheduled close as a plain-text mail in the recipient's language. */
export function closeMail(
  to: string,
  language: Language,
  report: { organizationName: string; frequency: CloseFrequency; close: DayClose },
): MailMessage {
  const t = texts[language];
  const { close } = report;
  const line = (figures: CloseFigures) => t.line(figures, close.currency);
  const lines = [`${report.organizationName} · ${t.period(close)}`, '', `${t.total}: ${line(close.totals)}`];
  for (const account of close.byAccount) {
    lines.push('', `${account.name}: ${line(account.figures)}`);
    for (const bpt of account.byBpt) lines.push(`  ${bpt.bptId ? bpt.name : t.noTerminal}: ${line(bpt.figures)}`);
  }
  lines.push('', `${t.byMethod}:`);
  for (const method of ['lightning', 'onchain'] as const)
    lines.push(`  ${t.method[method]}: ${line(close.byMethod[method])}`);
  if (close.byHour.length > 0) {
    lines.push('', `${t.byHour}:`);
    for (const hour of close.byHour) lines.push(`  ${String(hour.hour).padStart(2, '0')}:00: ${line(hour.figures)}`);
  }
  lines.push('', t.footer);
  return {
    to,
    subject: `${t.subject[report.frequency]} · ${report.organizationName} · ${t.period(close)}`,
    text: lines.join('\n'),
  };
}
