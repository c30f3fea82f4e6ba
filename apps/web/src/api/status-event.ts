/**
 * Reads a status event of a Server-Sent Events stream, `{ id, status }` as the server writes it
 * (CheckoutStatusEventSchema, InvoiceStatusEventSchema). It is checked by hand rather than with
 * those schemas: the public checkout and donation pages would otherwise load zod (25 KiB) for
 * this one check before they could show anything.
 */
export function readStatusEvent<Status extends string>(
  data: string,
  id: string,
  statuses: readonly Status[],
): Status | null {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    console.warn('Unreadable status event', data);
    return null;
  }
  if (typeof event !== 'object' || event === null) return null;
  const { id: eventId, status } = event as { id?: unknown; status?: unknown };
  return eventId === id && statuses.includes(status as Status) ? (status as Status) : null;
}
