import type { AccessClaims } from '../modules/auth/tokens.ts';

/**
 * Who is asking: the signed-in caller's claims, with what the access check learned on the way
 * (the user's e-mail, read to refuse a deleted user's token) and the client's address. Built
 * once per request by the access hook (`access.ts`); routes hand it to services as their first
 * argument, and `audit()` names the actor of an entry from it.
 */
export type RequestContext = AccessClaims & {
  actorEmail: string;
  /** The client's address as `trustProxy` resolves it (docs/security.md). */
  ip: string;
};
