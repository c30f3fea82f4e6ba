import { AppError } from '@rayo/shared';
import type { FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../domain/ip-address.ts';

function forwardedAddresses(request: FastifyRequest): string[] {
  const header = request.headers['x-forwarded-for'];
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values.flatMap((value) => value.split(',')).map((address) => address.trim());
}

/**
 * Whether a request comes from this machine: the connection, the client address Rayo takes
 * (after `TRUST_PROXY`), and every address a proxy wrote into X-Forwarded-For are loopback ones.
 * A proxy on the same host without `TRUST_PROXY` connects from loopback, but names its client;
 * a `Forwarded` header is another proxy's way of doing so. Either one from elsewhere refuses.
 */
export function isFromThisMachine(request: FastifyRequest): boolean {
  if (request.headers.forwarded !== undefined) return false;
  const addresses = [request.raw.socket.remoteAddress ?? '', request.ip, ...forwardedAddresses(request)];
  return addresses.every(isLoopbackAddress);
}

/**
 * An `onRequest` hook for routes that must answer only on the operator's own machine unless
 * `open`: the devnet wallet's calls pay any invoice, mine and send coins, with no session.
 */
export function onlyFromThisMachine(open: boolean) {
  return async (request: FastifyRequest): Promise<void> => {
    if (open || isFromThisMachine(request)) return;
    throw new AppError(
      'Forbidden',
      'The devnet wallet answers only on the machine Rayo runs on; DEVNET_PUBLIC=true opens it to every address',
    );
  };
}
