import type { Language, PayoutDestinationKind } from '@rayo/shared';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

/** What every admin of the organization is told when a payout destination changes. */
export type DestinationChangeNotice = {
  organizationName: string;
  kind: PayoutDestinationKind;
  /** Shown as written: an address, or a bank account with its number masked. */
  before: string | null;
  after: string;
  changedBy: string | null;
  changedAt: Date;
  releaseAt: Date;
  cancelLink: string;
};

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const texts = {
  en: {
    destination: { lightning: 'Lightning address', onchain: 'on-chain address', bank: 'bank account' },
    none: '(none)',
    someone: 'an admin',
    subject: (what: string, organization: string) => `The payout ${what} of ${organization} was changed`,
    body: (n: DestinationChangeNotice, what: string, before: string, by: string) =>
      `The ${what} that ${n.organizationName} is paid to was changed by ${by} on ${utc(n.changedAt)}.\n\nBefore: ${before}\nNow: ${n.after}\n\nNo payout goes to the new ${what} before ${utc(n.releaseAt)}, unless our team verifies it sooner.\n\nIf you did not make this change, cancel it: the previous ${what} comes back.\n${n.cancelLink}\n\nThe link works until ${utc(n.releaseAt)}.`,
  },
  es: {
    destination: { lightning: 'dirección Lightning', onchain: 'dirección on-chain', bank: 'cuenta bancaria' },
    none: '(ninguna)',
    someone: 'un administrador',
    subject: (what: string, organization: string) => `Se cambió la ${what} de pagos de ${organization}`,
    body: (n: DestinationChangeNotice, what: string, before: string, by: string) =>
      `La ${what} a la que se paga a ${n.organizationName} fue cambiada por ${by} el ${utc(n.changedAt)}.\n\nAntes: ${before}\nAhora: ${n.after}\n\nNingún pago va a la nueva ${what} antes del ${utc(n.releaseAt)}, salvo que nuestro equipo la verifique antes.\n\nSi no hiciste este cambio, cancélalo: vuelve la ${what} anterior.\n${n.cancelLink}\n\nEl enlace funciona hasta el ${utc(n.releaseAt)}.`,
  },
} satisfies Record<Language, unknown>;

export function destinationChangeMail(to: string, language: Language, notice: DestinationChangeNotice): MailMessage {
  const t = texts[language];
  const what = t.destination[notice.kind];
  return {
    to,
    subject: t.subject(what, notice.organizationName),
    text: t.body(notice, what, notice.before ?? t.none, notice.changedBy ?? t.someone),
  };
}
