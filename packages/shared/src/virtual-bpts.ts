import { z } from 'zod';

// Virtual BPTs (SPEC §3: name, linked BPT). Its sales land on the linked BPT's account and currency.
export const VirtualBptSchema = z.object({
  id: z.string(),
  name: z.string(),
  bptId: z.string(),
  bptName: z.string(),
  accountId: z.string(),
  accountName: z.string(),
  currency: z.string(),
  createdAt: z.iso.datetime(),
});
export type VirtualBpt = z.infer<typeof VirtualBptSchema>;
export const VirtualBptListSchema = z.array(VirtualBptSchema);

export const CreateVirtualBptRequestSchema = z.object({
  name: z.string().trim().min(1).max(100),
  bptId: z.uuid(),
});
export type CreateVirtualBptRequest = z.infer<typeof CreateVirtualBptRequestSchema>;
