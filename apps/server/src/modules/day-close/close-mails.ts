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

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Names are typed by people: nothing of them may run as markup in the recipient's mail program. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

type MailSection = {
  title?: string;
  rows: Array<{ label: string; figures: string; indent?: boolean; bold?: boolean }>;
};

/** The same notes and sections as the plain text, as a simple HTML document. */
function closeHtml(language: Language, heading: string, notes: string[], sections: MailSection[], footer: string) {
  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const body = sections
    .map((section) => {
      const rows = section.rows
        .map(
          (row) =>
            `<tr><td style="${cell}${row.indent ? ';padding-left:16px' : ''}${row.bold ? ';font-weight:bold' : ''}">` +
            `${escapeHtml(row.label)}</td><td style="${cell}">${escapeHtml(row.figures)}</td></tr>`,
        )
        .join('');
      return `${section.title ? `<h2 style="font-size:16px">${escapeHtml(section.title)}</h2>` : ''}<table>${rows}</table>`;
    })
    .join('');
  return (
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"></head>` +
    `<body style="font-family:sans-serif;font-size:14px"><h1 style="font-size:18px">${escapeHtml(heading)}</h1>` +
    notes.map((note) => `<p><strong>${escapeHtml(note)}</strong></p>`).join('') +
    `${body}<p style="color:#666">${escapeHtml(footer)}</p></body></html>`
  );
}

/**
 * A scheduled close as a mail in the recipient's language: plain text, the same in HTML, and the
 * CSV and PDF attached.
 */
export function closeMail(to: string, language: Language, report: CloseMailReport): MailMessage {
  const t = texts[language];
  const { close } = report;
  const line = (figures: CloseFigures) => t.line(figures, close.currency);
  const heading = `${report.organizationName} · ${t.period(close)}`;
  const notes = [
    ...(report.late ? [t.lateNote(close.to, report.time, close.timeZone)] : []),
    ...(report.repeat ? [t.repeatNote] : []),
  ];
  const sections: MailSection[] = [{ rows: [{ label: t.total, figures: line(close.totals), bold: true }] }];
  for (const account of close.byAccount) {
    sections.push({
      rows: [
        { label: account.name, figures: line(account.figures), bold: true },
        ...account.byBpt.map((bpt) => ({
          label: bpt.bptId ? bpt.name : t.noTerminal,
          figures: line(bpt.figures),
          indent: true,
        })),
      ],
    });
  }
  sections.push({
    title: t.byMethod,
    rows: (['lightning', 'onchain'] as const).map((method) => ({
      label: t.method[method],
      figures: line(close.byMethod[method]),
      indent: true,
    })),
  });
  if (close.byHour.length > 0) {
    sections.push({
      title: t.byHour,
      rows: close.byHour.map((hour) => ({
        label: closeHourLabel(hour, t.runs),
        figures: line(hour.figures),
        indent: true,
      })),
    });
  }
  const lines = [heading, ''];
  for (const note of notes) lines.push(note, '');
  sections.forEach((section, index) => {
    if (index > 0) lines.push('');
    if (section.title) lines.push(`${section.title}:`);
    for (const row of section.rows) lines.push(`${row.indent ? '  ' : ''}${row.label}: ${row.figures}`);
  });
  lines.push('', t.footer);
  const subject = `${t.subject[report.frequency]} · ${report.organizationName} · ${t.period(close)}`;
  return {
    to,
    subject: report.late ? `${t.late}: ${subject}` : subject,
    text: lines.join('\n'),
    html: closeHtml(language, heading, notes, sections, t.footer),
    attachments: report.attachments,
    messageId: report.messageId,
    ...(report.repeat && { headers: { 'X-Rayo-Repeat': 'yes' } }),
  };
}
