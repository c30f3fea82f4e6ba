import { type TranslationValues, useTranslation } from '../../i18n/index.ts';

/**
 * The refund dialog's texts, in English and Spanish, loaded with the transactions table: every
 * route downloads en.json, and the home page has no room left for texts only this dialog shows
 * (docs/decisions/0056-texts-of-lazy-parts.md).
 */
const en = {
  column: 'Refunds',
  open: 'Refunds',
  title: 'Refunds of this sale',
  left: '{{left}} of {{sale}} can still be refunded.',
  none: 'No refunds yet.',
  states: {
    open: 'Waiting for the customer',
    paying: 'Paying',
    paid: 'Paid',
  },
  linkHelp:
    'Show this QR code to the customer, or send them the link: any Lightning wallet that opens LNURL links receives the refund, once.',
  qr: 'Refund link QR code',
  link: 'Refund link',
  partLabel: 'Refund part of the sale (sats)',
  partHelp: 'Or refund everything that is left.',
  refundPart: 'Refund this amount',
  refundAll: 'Refund {{amount}}',
  adminsOnly: 'Only admins can refund a sale.',
  how: 'How the customer gets it',
  viaLink: 'Refund link (QR)',
  viaLightning: 'Lightning invoice or address',
  destinationLabel: "Customer's Lightning invoice or address",
  destinationHelp:
    'An invoice for exactly the amount refunded, or an address like name@wallet.com. Rayo pays it at once.',
  paying: 'Rayo is paying the customer; the refund shows as Paid when the payment arrives.',
  viaBitcoin: 'Bitcoin address',
  addressLabel: "Customer's Bitcoin address",
  addressHelp: "Rayo's wallet sends the refund on-chain at once, in whole sats (at least 546).",
  sending: "Rayo's wallet is sending the refund on-chain; it shows as Paid once the network has the transaction.",
};

const es: typeof en = {
  column: 'Reembolsos',
  open: 'Reembolsos',
  title: 'Reembolsos de esta venta',
  left: 'Aún se pueden reembolsar {{left}} de {{sale}}.',
  none: 'Aún no hay reembolsos.',
  states: {
    open: 'Esperando al cliente',
    paying: 'Pagando',
    paid: 'Pagado',
  },
  linkHelp:
    'Muestra este código QR al cliente o envíale el enlace: cualquier billetera Lightning que abra enlaces LNURL recibe el reembolso, una sola vez.',
  qr: 'Código QR del enlace de reembolso',
  link: 'Enlace de reembolso',
  partLabel: 'Reembolsar parte de la venta (sats)',
  partHelp: 'O reembolsa todo lo que queda.',
  refundPart: 'Reembolsar este monto',
  refundAll: 'Reembolsar {{amount}}',
  adminsOnly: 'Solo los administradores pueden reembolsar una venta.',
  how: 'Cómo lo recibe el cliente',
  viaLink: 'Enlace de reembolso (QR)',
  viaLightning: 'Factura o dirección Lightning',
  destinationLabel: 'Factura o dirección Lightning del cliente',
  destinationHelp:
    'Una factura por exactamente el monto reembolsado, o una dirección como nombre@billetera.com. Rayo la paga al momento.',
  paying: 'Rayo está pagando al cliente; el reembolso aparece como Pagado cuando llega el pago.',
  viaBitcoin: 'Dirección Bitcoin',
  addressLabel: 'Dirección Bitcoin del cliente',
  addressHelp: 'La billetera de Rayo envía el reembolso on-chain al momento, en sats enteros (al menos 546).',
  sending:
    'La billetera de Rayo está enviando el reembolso on-chain; aparece como Pagado cuando la red tiene la transacción.',
};

type Key = Exclude<keyof typeof en, 'states'> | `states.${keyof typeof en.states}`;

/** The refund texts in the app's current language, with `{{name}}` placeholders filled. */
export function useRefundTexts(): (key: Key, values?: TranslationValues) => string {
  const texts = useTranslation().i18n.language === 'es' ? es : en;
  return (key, values) => {
    const text = key.startsWith('states.')
      ? texts.states[key.slice(7) as keyof typeof en.states]
      : texts[key as Exclude<Key, `states.${string}`>];
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values?.[name] ?? ''));
  };
}
