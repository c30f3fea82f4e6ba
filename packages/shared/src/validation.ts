import { z } from 'zod';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, isStrongPassword } from './credentials.ts';

export const EmailSchema = z.email({ pattern: EMAIL_PATTERN }).max(EMAIL_MAX_LENGTH);
export const StrongPasswordSchema = z.string().max(256).refine(isStrongPassword);
