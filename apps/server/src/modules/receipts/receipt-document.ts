import {
  dateTimeFormatter,
  formatDecimalMoney,
  formatLocale,
  formatMsatAsSats,
  type Language,
  type Receipt,
} from '@rayo/shared';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { PdfBlock, PdfDocumentSpec } from '../../pdf/pdf-writer.ts';

/** The receipt's words, in the customer's language: the web page's, from its own texts. */
const texts = {
  en: {
    title: 'Receipt',
    bill: 'Bill',
    tip: 'Tip',
    tax: 'Tax',
    total: 'Total',
    paid: 'Paid',
    rate: 'Sats/fiat rate',
    paymentHash: 'Payment hash',
    txid: 'Transaction id',
    refund: (date: string) => `Refunded ${date}`,
    thanks: 'Thank you!',
    link: 'This receipt online:',
    attached: 'The receipt is attached as a PDF.',
    subject: (merchant: string) => `Your receipt from ${merchant}`,
    intro: (merchant: string, date: string) => `${merchant} received your payment on ${date}.`,
    footer: 'You get this email because this address was typed on the payment screen. It is not kept.',
  },
  es: {
    title: 'Recibo',
    bill: 'Subtotal',
    tip: 'Propina',
    tax: 'Impuesto',
    total: 'Total',
    paid: 'Pagado',
    rate: 'Tasa sats/moneda',
    paymentHash: 'Hash del pago',
    txid: 'Id de la transacción',
    refund: (date: string) => `Reembolsado el ${date}`,
    thanks: '¡Gracias!',
    link: 'Este recibo en línea:',
    attached: 'El recibo va adjunto en PDF.',
    subject: (merchant: string) => `Tu recibo de ${merchant}`,
    intro: (merchant: string, date: string) => `${merchant} recibió tu pago el ${date}.`,
    footer: 'Recibes este correo porque esta dirección se escribió en la pantalla de pago. No se guarda.',
  },
} satisfies Record<Language, unknown>;

/** A receipt's figures written for people in `language`, as the merchant's country writes them. */
export function receiptFigures(receipt: Receipt, language: Language) {
  const t = texts[language];
  const locale = formatLocale(language, receipt.countryCode);
  const money = (value: string) => formatDecimalMoney(value, receipt.currency, locale);
  const rateSats = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(
    receipt.rate as Intl.StringNumericLiteral,
  );
  const formatDate = dateTimeFormatter(locale, receipt.timeZone, 'dateTime', true);
  const when = formatDate(receipt.settledAt);
  const lines: { label: string; value: string; bold?: boolean }[] = [
    { label: t.bill, value: money(receipt.billAmount) },
    { label: t.tip, value: money(receipt.tip) },
    { label: t.tax, value: money(receipt.tax) },
    { label: t.total, value: money(receipt.total), bold: true },
    { label: t.paid, value: formatMsatAsSats(receipt.totalMsat, locale) },
    { label: t.rate, value: `${rateSats} sats/${receipt.currency}` },
    ...receipt.refunds.map((refund) => ({
      label: t.refund(formatDate(refund.paidAt)),
      value: `−${money(refund.fiatAmount)} (${formatMsatAsSats(refund.amountMsat, locale)})`,
    })),
  ];
  return { t, when, lines };
}

function paymentLines(receipt: Receipt, language: Language): { label: string; value: string }[] {
  const t = texts[language];
  if (receipt.paymentHash) return [{ label: t.paymentHash, value: receipt.paymentHash }];
  return receipt.txids.map((txid) => ({ label: t.txid, value: txid }));
}

/** The receipt as a roll of a thermal printer: 80 mm wide, as long as it needs. */
export function receiptPdf(receipt: Receipt, language: Language, link: string, logo: Buffer | null): PdfDocumentSpec {
  const { t, when, lines } = receiptFigures(receipt, language);
  const blocks: PdfBlock[] = [
    ...(logo ? [{ kind: 'image', data: logo, height: 40 } satisfies PdfBlock] : []),
    { kind: 'title', text: receipt.merchant.name, align: 'center' },
    { kind: 'text', text: t.title, align: 'center', bold: true },
    { kind: 'text', text: when, align: 'center', muted: true },
    ...(receipt.description ? [{ kind: 'text', text: receipt.description, align: 'center' } satisfies PdfBlock] : []),
    { kind: 'rule' },
    ...lines.map((line): PdfBlock => ({ kind: 'pair', label: line.label, value: line.value, bold: line.bold })),
    { kind: 'rule' },
    ...paymentLines(receipt, language).flatMap((line): PdfBlock[] => [
      { kind: 'text', text: line.label, size: 7, bold: true },
      { kind: 'text', text: line.value, size: 7 },
    ]),
    { kind: 'space', height: 4 },
    { kind: 'text', text: t.thanks, align: 'center', bold: true },
    { kind: 'text', text: `${t.link} ${link}`, size: 6.5, align: 'center', muted: true },
  ];
  return { page: 'roll-80mm', title: `${t.title} · ${receipt.merchant.name}`, language, blocks };
}

/** The receipt as a plain-text mail, with its link; the PDF goes with it as an attachment. */
export function receiptMail(to: string, receipt: Receipt, language: Language, link: string): MailMessage {
  const { t, when, lines } = receiptFigures(receipt, language);
  const width = Math.max(...lines.map((line) => line.label.length)) + 2;
  const figures = lines.map((line) => `${`${line.label}:`.padEnd(width)} ${line.value}`).join('\n');
  const payment = paymentLines(receipt, language)
    .map((line) => `${line.label}: ${line.value}`)
    .join('\n');
  const description = receipt.description ? `${receipt.description}\n\n` : '';
  return {
    to,
    subject: t.subject(receipt.merchant.name),
    text: `${t.intro(receipt.merchant.name, when)}\n\n${description}${figures}\n\n${payment}\n\n${t.link}\n${link}\n${t.attached}\n\n${t.thanks}\n\n-- \n${t.footer}`,
  };
}
