import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { EmailSchema, StrongPasswordSchema } from './validation.ts';

// Managers (SPEC §3: name, email, password, role; linked to accounts). The role is always
// `manager`, and the password is assigned by the administrator (SPEC §5), never returned.

const ManagerNameSchema = z.string().trim().min(1).max(100);

export const ManagerSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** The language the manager's sign-in answers, which sets their screens' language. */
  language: LanguageSchema,
  accountIds: z.array(z.string()),
});
export type Manager = z.infer<typeof ManagerSchema>;
export const ManagerListSchema = z.array(ManagerSchema);

export const CreateManagerRequestSchema = z.object({
  name: ManagerNameSchema,
  email: EmailSchema,
  password: StrongPasswordSchema,
  /** Absent: the organization's language. */
  language: LanguageSchema.optional(),
  accountIds: z.array(z.uuid()).max(1000),
});
export type CreateManagerRequest = z.infer<typeof CreateManagerRequestSchema>;

/** The email is the manager's sign-in name, so it stays as created. */
export const UpdateManagerRequestSchema = z.object({
  name: ManagerNameSchema.optional(),
  language: LanguageSchema.optional(),
  accountIds: z.array(z.uuid()).max(1000).optional(),
  password: StrongPasswordSchema.optional(),
});
export type UpdateManagerRequest = z.infer<typeof UpdateManagerRequestSchema>;
