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

/**
 * A request no one signed in to (sign-in, sign-up, confirmation, password reset, the MFA
 * sign-in step, the mailed link that cancels a payout destination change): the client's address
 * and no caller. Its services name the user they find. A `RequestContext` is one too, so code
 * both kinds share (the MFA audit rows) takes this.
 */
export type PublicContext = { ip: string };

/**
 * A periodic pass acting with no one asking (jobs/periodic.ts): what it records names it as
 * `system:<job key>`, as a signed-in caller's entries name the user.
 */
export type SystemContext = { system: `system:${string}` };

/** The context a periodic pass runs under, named by its job key (`worker.test.ts` lists them). */
export function systemContext(jobKey: string): SystemContext {
  return { system: `system:${jobKey}` };
}

/** Whoever an audit entry names: a signed-in caller or a periodic pass. */
export type ActorContext = RequestContext | SystemContext;
