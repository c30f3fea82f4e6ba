import { Image, Skeleton } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/**
 * The QR code of a BOLT11 invoice as a `lightning:` URI. The invoice is upper-cased: QR codes
 * hold upper-case letters more compactly, and BOLT11 reads either case.
 */
export function LightningQr({
  paymentRequest,
  alt,
  size = 320,
}: {
  paymentRequest: string;
  alt: string;
  size?: number;
}) {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(`lightning:${paymentRequest.toUpperCase()}`, { errorCorrectionLevel: 'M', margin: 2, width: size })
      .then((url) => {
        if (current) setDataUrl(url);
      })
      .catch((error: unknown) => console.error('Could not draw the invoice QR code', error));
    return () => {
      current = false;
    };
  }, [paymentRequest, size]);
  if (!dataUrl) return <Skeleton w="100%" maw={size} style={{ aspectRatio: '1' }} mx="auto" />;
  return <Image src={dataUrl} alt={alt} w="100%" maw={size} mx="auto" style={{ imageRendering: 'pixelated' }} />;
}
