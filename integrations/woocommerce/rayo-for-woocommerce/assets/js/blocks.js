/**
 * Registers Rayo in WooCommerce's Checkout block. Plain script on WordPress's globals, so the
 * plugin needs no build step. License: GPL-2.0-or-later.
 */
(() => {
  const { registerPaymentMethod } = window.wc.wcBlocksRegistry;
  const { getSetting } = window.wc.wcSettings;
  const { createElement } = window.wp.element;
  const { decodeEntities } = window.wp.htmlEntities;

  const settings = getSetting('rayo_data', {});
  const title = decodeEntities(settings.title || 'Bitcoin');
  const Content = () => createElement('div', null, decodeEntities(settings.description || ''));

  registerPaymentMethod({
    name: 'rayo',
    label: createElement('span', null, title),
    ariaLabel: title,
    content: createElement(Content),
    edit: createElement(Content),
    canMakePayment: () => true,
    supports: { features: settings.supports || ['products'] },
  });
})();
