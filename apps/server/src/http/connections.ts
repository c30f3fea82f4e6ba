import type { Server } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config.ts';
import { addressOwner } from '../domain/ip-address.ts';
import { answerOnSocket, rawErrorAnswer } from './error-handler.ts';

const RETRY_AFTER_SECONDS = 5;

/**
 * Whether a socket's peer is one of the proxies `TRUST_PROXY` names. With a hop count every peer
 * is one (Rayo is reachable only through them); with a list, those addresses are.
 */
function proxyTest(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => true;
  const trusted = proxyAddr.compile(trust);
  return (address) => trusted(address, 0);
}

/**
 * Caps the connections one client address (an IPv6 /64 counting as one) holds open at once.
 * Each open connection costs a socket and memory however slowly it sends, so that one address
 * with hundreds of trickling requests cannot take what every other caller needs; past the cap
 * the new connection gets 429 and is closed at once. A trusted proxy's connections carry many
 * clients and are not capped: the proxy guards its own.
 */
export function capConnectionsPerAddress(server: Server, perAddress: number, trust: TrustProxy): void {
  const isProxy = proxyTest(trust);
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || isProxy(address)) return;
    const owner = addressOwner(address);
    const held = open.get(owner) ?? 0;
    if (held >= perAddress) {
      const message = 'Too many open connections from your address';
      answerOnSocket(socket, rawErrorAnswer(429, 'TooManyRequests', message, [`retry-after: ${RETRY_AFTER_SECONDS}`]));
      return;
    }
    open.set(owner, held + 1);
    socket.once('close', () => {
      const left = (open.get(owner) ?? 1) - 1;
      if (left === 0) open.delete(owner);
      else open.set(owner, left);
    });
  });
}
