import { Image, Skeleton } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** `value` drawn as a QR code image, with a placeholder while it is drawn. */
export function QrCode({ value, alt, size = 320 }: { value: string; alt: string; size?: number }) {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(value, { errorCorrectionLevel: 'M', margin: 2, width: size })
      .then((url) => {
        if (current) setDataUrl(url);
      })
      .catch((error: unknown) => console.error('Could not draw a QR code', error));
    return () => {
      current = false;
    };
  }, [value, size]);
  if (!dataUrl) return <Skeleton w="100%" maw={size} style={{ aspectRatio: '1' }} mx="auto" />;
  return <Image src={dataUrl} alt={alt} w="100%" maw={size} mx="auto" style={{ imageRendering: 'pixelated' }} />;
}
