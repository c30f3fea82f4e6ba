import { Resvg } from '@resvg/resvg-js';
import { screen } from '@testing-library/react';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test-render.tsx';
import { LightningQr } from './LightningQr.tsx';
import { QrCode } from './QrCode.tsx';

/** What a reader that shares no code with the drawing makes of the code on screen: rasterized by resvg, read by jsQR. */
function scan(name: string): string | undefined {
  const svg = screen.getByRole('img', { name });
  const markup = svg.outerHTML.replace('<svg', '<svg xmlns="http://www.w3.org/2000/svg"');
  const image = new Resvg(markup, { fitTo: { mode: 'width', value: 400 } }).render();
  return jsQR(new Uint8ClampedArray(image.pixels), image.width, image.height)?.data;
}

// Shaped and sized as a regtest BOLT11 invoice of the devnet node, lower-case as the API sends it.
const INVOICE =
  'lnbcrt500u1p5k0j7dpp5xj6wqc2d6q4xg0j0e8y7w5zjtuhzq7v8j0ktm8mqg0mz3e5xq2csdqqcqzzsxqyz5vqsp5u5ddv0ljz7smqj4e2n8fh7x8d6qk4f0r3v5xl9q4m8n6ydw6a2ls9qxpqysgq9hq8y0fuhrmd9xq3h6q4nnm5pf5kdw3nfx5y8f7a9ykz2vgjfqg8e9x0m6hd4u8y0r0p2c6ns9r3r9l8tp6jx0dz2d2g0xq5v7yq4cqq3k9lqy';

describe('QrCode', () => {
  it("draws a Lightning invoice that a phone's reader scans back to the exact upper-cased invoice", async () => {
    await renderWithProviders(<LightningQr paymentRequest={INVOICE} alt="QR code of the Lightning invoice" />);
    expect(scan('QR code of the Lightning invoice')).toBe(`lightning:${INVOICE.toUpperCase()}`);
  });

  it('draws a mixed-case link as it is', async () => {
    const url = 'http://127.0.0.1:5173/receipt/Ab3-xY_9zQkLmN0pR7sTuVwX';
    await renderWithProviders(<QrCode value={url} alt="QR code of the receipt" size={168} />);
    expect(scan('QR code of the receipt')).toBe(url);
  });
});
