import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals TOTP secrets at rest with AES-256-GCM, so a copy of the database (a backup, a replica)
 * does not hand out every user's second factor. The sealed form is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; the user id is authenticated alongside, so a
 * sealed secret copied onto another user's row does not open.
 */
export type SecretCipher = {
  seal(plaintext: string, userId: string): string;
  open(sealed: string, userId: string): string;
};

const VERSION = 'v1';

/** `keyMaterial` is `MFA_ENCRYPTION_KEY` or the generated one; HKDF turns any such string into a 256-bit key. */
export function createSecretCipher(keyMaterial: string): SecretCipher {
  const key = Buffer.from(hkdfSync('sha256', keyMaterial, '', 'rayo mfa secrets', 32));
  return {
    seal(plaintext, userId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(userId));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, userId) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
        throw new Error('A sealed MFA secret is malformed');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        .setAAD(Buffer.from(userId))
        .setAuthTag(Buffer.from(tag, 'base64url'));
      // A wrong key throws here: MFA_ENCRYPTION_KEY changed after secrets were sealed with another.
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
