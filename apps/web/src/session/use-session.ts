import { useSyncExternalStore } from 'react';
import { type Session, sessionStore } from './session-store.ts';

export function useSession(): Session {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}
