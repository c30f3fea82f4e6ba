import { createHmac } from 'node:crypto';

/**
 * The `Rayo-Signature` header of a delivery (docs/api.md "Verifying a webhook"):
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Signing the timestamp with
 * the body lets a receiver refuse an old delivery replayed at it.
 */
export function signWebhook(secret: string, timestampSeconds: number, body: string): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}
