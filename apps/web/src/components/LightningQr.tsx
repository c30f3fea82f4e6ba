import { QrCode } from './QrCode.tsx';

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
  return <QrCode value={`lightning:${paymentRequest.toUpperCase()}`} alt={alt} size={size} />;
}
