import { z } from 'zod';

/** SPEC §5: at least 8 characters with an uppercase, a lowercase, a number and a special character. */
export function isStrongPassword(password: string): boolean {
  return (
    password.length >= 8 &&
    /[A-Z]/.test(password) &&
    /[a-z]/.test(password) &&
    /[0-9]/.test(password) &&
    /[^A-Za-z0-9]/.test(password)
  );
}

export const EmailSchema = z.email().max(254);
export const StrongPasswordSchema = z.string().max(256).refine(isStrongPassword);
