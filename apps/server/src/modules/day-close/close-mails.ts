import { type CloseFigures, type CloseFrequency, closeHourLabel, type DayClose, type Language } from '@rayo/shared';
import type { MailAttachment, MailMessage } from '../../adapters/mail/mailer.ts';

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
    runs: { first: '1st', second: '2nd' },
    footer: 'Sent by Rayo on the schedule set in Close. The same figures are on screen, and attached as CSV and PDF.',
    late: 'Late',
    lateNote: (day: string, time: string, timeZone: string) =>
      `Late: this close was due at ${time} on ${day} (${timeZone}), when no Rayo server was running.`,
    repeatNote:
      'This mail may repeat one already sent: an earlier sending was cut short. Both carry the same Message-ID.',
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
    runs: { first: '1.ª', second: '2.ª' },
    footer:
      'Enviado por Rayo según la programación de Corte de caja. Las mismas cifras están en pantalla y adjuntas en CSV y PDF.',
    late: 'Con retraso',
    lateNote: (day: string, time: string, timeZone: string) =>
      `Con retraso: este corte debía enviarse a las ${time} del ${day} (${timeZone}), cuando ningún servidor de Rayo estaba en marcha.`,
    repeatNote:
      'Este correo puede repetir uno ya enviado: un envío anterior quedó a medias. Ambos llevan el mismo Message-ID.',
  },
} satisfies Record<Language, unknown>;

export type CloseMailReport = {
  organizationName: string;
  frequency: CloseFrequency;
  close: DayClose;
  /** The closing time, `HH:MM`, of the period's last day. */
  time: string;
  /** Queued well after its closing time, by a pass that caught it up. */
  late: boolean;
  /** An earlier sending of this mail may have reached the mail server. */
  repeat: boolean;
  /** The close as CSV and as PDF, the same files as the downloads. */
  attachments: MailAttachment[];
  /** The same for every sending of this mail (the schedule, the period and the recipient). */
  messageId: string;
};

/** A scheduled close as a plain-text mail in the recipient's language, the CSV and PDF attached. */
export function closeMail(to: string, language: Language, report: CloseMailReport): MailMessage {
  const t = texts[language];
  const { close } = report;
  const line = (figures: CloseFigures) => t.line(figures, close.currency);
  const lines = [`${report.organizationName} · ${t.period(close)}`, ''];
  if (report.late) lines.push(t.lateNote(close.to, report.time, close.timeZone), '');
  if (report.repeat) lines.push(t.repeatNote, '');
  lines.push(`${t.total}: ${line(close.totals)}`);
  for (const account of close.byAccount) {
    lines.push('', `${account.name}: ${line(account.figures)}`);
    for (const bpt of account.byBpt) lines.push(`  ${bpt.bptId ? bpt.name : t.noTerminal}: ${line(bpt.figures)}`);
  }
  lines.push('', `${t.byMethod}:`);
  for (const method of ['lightning', 'onchain'] as const)
    lines.push(`  ${t.method[method]}: ${line(close.byMethod[method])}`);
  if (close.byHour.length > 0) {
    lines.push('', `${t.byHour}:`);
    for (const hour of close.byHour) lines.push(`  ${closeHourLabel(hour, t.runs)}: ${line(hour.figures)}`);
  }
  lines.push('', t.footer);
  const subject = `${t.subject[report.frequency]} · ${report.organizationName} · ${t.period(close)}`;
  return {
    to,
    subject: report.late ? `${t.late}: ${subject}` : subject,
    text: lines.join('\n'),
    attachments: report.attachments,
    messageId: report.messageId,
    ...(report.repeat && { headers: { 'X-Rayo-Repeat': 'yes' } }),
  };
}
