import { AppError, type ErrorCode } from '@rayo/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The page a shopper sees when a shop's entry (Shopify's 'Complete payment' link, Ecwid's payment
 * form POST) cannot open a checkout. These entries are reached by a browser navigation, before
 * any of the web app loads, so the answer is a small HTML page in the shopper's language rather
 * than the API's JSON. It names nothing of the merchant.
 */

type Language = 'en' | 'es';

const titles: Record<Language, string> = { en: 'Payment not started', es: 'Pago no iniciado' };

const messages: Record<
  'paid' | 'notFound' | 'unreadable' | 'notChargeable' | 'busy' | 'tooMany',
  Record<Language, string>
> = {
  paid: { en: 'This order is already paid.', es: 'Este pedido ya está pagado.' },
  notFound: {
    en: 'This payment link is not valid. Go back to the store and try again.',
    es: 'Este enlace de pago no es válido. Vuelve a la tienda e inténtalo de nuevo.',
  },
  unreadable: {
    en: 'This payment request could not be read. Go back to the store and try again.',
    es: 'No se pudo leer esta solicitud de pago. Vuelve a la tienda e inténtalo de nuevo.',
  },
  notChargeable: {
    en: 'This order cannot be paid with bitcoin here. Contact the store.',
    es: 'Este pedido no se puede pagar con bitcoin aquí. Contacta con la tienda.',
  },
  busy: {
    en: 'The payment could not be started. Try again in a moment.',
    es: 'No se pudo iniciar el pago. Inténtalo de nuevo en un momento.',
  },
  tooMany: {
    en: 'Too many attempts. Wait a few minutes and try again.',
    es: 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.',
  },
};

function messageOf(code: ErrorCode): keyof typeof messages {
  switch (code) {
    case 'ShopOrderNotPayable':
      return 'paid';
    case 'NotFound':
      return 'notFound';
    case 'InvalidShopPayload':
    case 'InvalidInput':
      return 'unreadable';
    case 'InvalidAmount':
    case 'InvalidCurrency':
    case 'OrganizationDisabled':
    case 'OrganizationBlocked':
      return 'notChargeable';
    case 'TooManyRequests':
      return 'tooMany';
    default:
      return 'busy';
  }
}

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && accept.includes('text/html');
}

function languageOf(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  return typeof header === 'string' && /^\s*es\b/i.test(header) ? 'es' : 'en';
}

/**
 * Answers a failed shop entry to a browser: the AppError's status with the page. Anything else
 * goes to the error handler (a 500 stays a logged 500).
 */
export function sendShopEntryProblem(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  // A program calling the entry (no text/html in Accept) gets the API's usual { code, message }.
  if (!(error instanceof AppError) || !wantsHtml(request)) throw error;
  const language = languageOf(request);
  const text = messages[messageOf(error.code)][language];
  const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${titles[language]}</title></head><body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5"><h1 style="font-size: 1.4rem">${titles[language]}</h1><p data-code="${error.code}">${text}</p></body></html>`;
  return reply.status(error.status).type('text/html; charset=utf-8').send(html);
}
