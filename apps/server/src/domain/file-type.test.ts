import { describe, expect, it } from 'vitest';
import { sniffFileType } from './file-type.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('sniffFileType', () => {
  it('knows PNG, JPEG and PDF by their magic numbers', () => {
    expect(sniffFileType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe('image/png');
    expect(sniffFileType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16))).toBe('image/jpeg');
    expect(sniffFileType(text('%PDF-1.7\n%âãÏÓ'))).toBe('application/pdf');
  });

  it('does not take a truncated or shifted magic number', () => {
    expect(sniffFileType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeUndefined();
    expect(sniffFileType(bytes(0xff, 0xd8))).toBeUndefined();
    expect(sniffFileType(text(' %PDF-1.7'))).toBeUndefined();
    expect(sniffFileType(text('%PDF'))).toBeUndefined();
    expect(sniffFileType(new Uint8Array())).toBeUndefined();
  });

  it('knows text that is not one of them as nothing', () => {
    expect(sniffFileType(text('<html><script>alert(1)</script></html>'))).toBeUndefined();
    expect(sniffFileType(text('GIF89a'))).toBeUndefined();
    expect(sniffFileType(text('PK\u0003\u0004'))).toBeUndefined();
  });

  it('recognises SVG however it starts, so that its refusal can name it', () => {
    expect(sniffFileType(text('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('image/svg+xml');
    expect(sniffFileType(text('\ufeff  <?xml version="1.0"?><svg/>'))).toBe('image/svg+xml');
    expect(sniffFileType(text('<!-- Generator: x -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">'))).toBe(
      'image/svg+xml',
    );
    expect(sniffFileType(text('<SVG onload="alert(1)">'))).toBe('image/svg+xml');
  });
});
