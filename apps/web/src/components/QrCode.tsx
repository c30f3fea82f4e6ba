import { Box } from '@mantine/core';
import QRCode from 'qrcode';
import { useMemo } from 'react';

/** Light modules around the code, as readers expect a quiet zone. */
const MARGIN = 2;

/**
 * Every one of the eight masks gives a valid code that any reader decodes; letting the library
 * pick the best by the standard's penalty rules builds and scores the code eight times, which
 * was the largest piece of main-thread work of the checkout on a phone.
 */
const MASK = 0;

/** What QR's alphanumeric mode holds: digits, upper-case letters, space and `$%*+-./:`. */
const ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]*$/;

/**
 * `value` as one segment: alphanumeric where it fits (an upper-cased invoice or address URI), else
 * bytes. Given a bare string, the library searches every way of splitting it into segments for
 * the shortest, the next largest piece of the checkout's work on a phone; for these values one
 * segment is as short or nearly.
 */
function segmentOf(value: string): QRCode.QRCodeSegment[] {
  return [
    ALPHANUMERIC.test(value)
      ? { data: value, mode: 'alphanumeric' }
      : { data: new TextEncoder().encode(value), mode: 'byte' },
  ];
}

/** The dark modules of `value`'s QR code as one SVG path, a run of modules per subpath, and the side in modules. */
function qrCodePath(value: string): { path: string; side: number } {
  const { modules } = QRCode.create(segmentOf(value), { errorCorrectionLevel: 'M', maskPattern: MASK });
  const runs: string[] = [];
  for (let row = 0; row < modules.size; row += 1) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col += 1;
      runs.push(`M${start + MARGIN} ${row + MARGIN}h${col - start}v1h${start - col}z`);
    }
  }
  return { path: runs.join(''), side: modules.size + 2 * MARGIN };
}

/**
 * `value` drawn as a QR code, in the first render: an SVG of the modules, black on white in any
 * colour scheme, that scales to `size` pixels at most.
 */
export function QrCode({ value, alt, size = 320 }: { value: string; alt: string; size?: number }) {
  const { path, side } = useMemo(() => qrCodePath(value), [value]);
  return (
    <Box
      component="svg"
      role="img"
      aria-label={alt}
      viewBox={`0 0 ${side} ${side}`}
      shapeRendering="crispEdges"
      display="block"
      w="100%"
      maw={size}
      mx="auto"
    >
      <rect width={side} height={side} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </Box>
  );
}
