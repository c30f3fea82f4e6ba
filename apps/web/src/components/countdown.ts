import { useEffect, useEffectEvent, useState } from 'react';

/** Whole seconds until `deadline` (an ISO time), ticking every second, never below zero. */
export function useSecondsLeft(deadline: string): number {
  const end = Date.parse(deadline);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.ceil((end - now) / 1000));
}

/**
 * The seconds left of an invoice, calling `onTimeUp` when they reach zero: the screen then asks
 * the server, which has the last word on whether the invoice expired or was paid at the wire.
 */
export function useInvoiceCountdown(expiresAt: string, onTimeUp: () => void): number {
  const secondsLeft = useSecondsLeft(expiresAt);
  const timeUp = useEffectEvent(onTimeUp);
  useEffect(() => {
    if (secondsLeft === 0) timeUp();
  }, [secondsLeft]);
  return secondsLeft;
}

export function mmss(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
