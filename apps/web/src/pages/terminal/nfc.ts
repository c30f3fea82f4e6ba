import { useCallback, useEffect, useRef, useState } from 'react';

/** The part of Web NFC (Chrome on Android) the terminal uses; TypeScript's DOM types lack it. */
type NdefRecord = { recordType: string; data?: DataView; encoding?: string };
type NdefReadingEvent = Event & { message: { records: readonly NdefRecord[] } };
type NdefReader = EventTarget & { scan(options?: { signal?: AbortSignal }): Promise<void> };
type NdefReaderConstructor = new () => NdefReader;

function readerConstructor(): NdefReaderConstructor | undefined {
  return (window as unknown as { NDEFReader?: NdefReaderConstructor }).NDEFReader;
}

const LNURL_WITHDRAW_PREFIXES = ['lnurlw://', 'lightning:', 'lnurl1'];

/** Whether text is an LNURL-withdraw the server can pay from: lnurlw://…, lightning:…, or bech32 LNURL1…. */
export function isLnurlWithdraw(text: string): boolean {
  const lower = text.trim().toLowerCase();
  return LNURL_WITHDRAW_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * The text of a card's first URL or text record (a Bolt Card's URI arrives as a "url" record),
 * or null when the card holds neither.
 */
export function firstRecordText(records: readonly NdefRecord[]): string | null {
  const record = records.find((candidate) => candidate.recordType === 'url' || candidate.recordType === 'text');
  if (!record?.data) return null;
  return new TextDecoder(record.encoding ?? 'utf-8').decode(record.data).trim();
}

export type NfcRead = { kind: 'lnurl'; lnurl: string } | { kind: 'not-lnurl' } | { kind: 'error' };

/**
 * SPEC §3 "NFC support": `available` when the browser has an NFC reader, `listening` while a
 * scan runs. A scan is started by a tap on a button (the browser asks for permission on the
 * first one) and stops after one card, on `stop`, or when the component goes away.
 */
export function useNfc(onRead: (read: NfcRead) => void) {
  const available = typeof window !== 'undefined' && readerConstructor() !== undefined;
  const [listening, setListening] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const handler = useRef(onRead);
  useEffect(() => {
    handler.current = onRead;
  });

  const stop = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setListening(false);
  }, []);

  const start = useCallback(async () => {
    const Reader = readerConstructor();
    if (!Reader) return;
    stop();
    const abort = new AbortController();
    controller.current = abort;
    const reader = new Reader();
    reader.addEventListener(
      'reading',
      (event) => {
        const text = firstRecordText((event as NdefReadingEvent).message.records);
        stop();
        handler.current(text && isLnurlWithdraw(text) ? { kind: 'lnurl', lnurl: text } : { kind: 'not-lnurl' });
      },
      { signal: abort.signal },
    );
    reader.addEventListener('readingerror', () => handler.current({ kind: 'error' }), { signal: abort.signal });
    try {
      await reader.scan({ signal: abort.signal });
      if (!abort.signal.aborted) setListening(true);
    } catch (error) {
      if (abort.signal.aborted) return;
      console.warn('NFC scan failed', error);
      stop();
      handler.current({ kind: 'error' });
    }
  }, [stop]);

  useEffect(() => stop, [stop]);

  return { available, listening, start, stop };
}
