import type { Server } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';
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

/** How long a connection closed under a request still arriving stays open for its answer to be read. */
const LINGER_MS = 1000;

/**
 * An answer that closes the connection (a body refused for its size or shape, say) is often sent
 * while the request's body is still arriving. Node then closes the socket as
 * soon as the answer is written, with bytes of the body still unread, and the kernel resets the
 * connection: a client that has not read the answer yet loses it. So the socket is ended (the
 * client reads the answer, then the end) and destroyed a second later, and nothing more is read
 * from it meanwhile: Node would otherwise read the rest of the body to discard it.
 */
export function registerLingeringClose(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (request.raw.complete || reply.getHeader('connection') !== 'close') return;
    const { socket } = request.raw;
    socket.destroySoon = () => {
      socket.end();
      socket.pause();
      // Node resumes a request it discards; this one is left unread instead.
      socket.resume = () => socket;
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
  });
}
