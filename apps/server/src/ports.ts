import net from 'node:net';

function listenOnce(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A port the system has just handed out as free on `host`. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return listenOnce(host, 0);
}

/** Whether `port` can be bound on `host` now, tried by binding it for a moment. */
export async function isPortFree(host: string, port: number): Promise<boolean> {
  try {
    await listenOnce(host, port);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') return false;
    throw error;
  }
}

/**
 * The HTTP port: the configured one, or a free one when it is taken and only a default (see
 * `Config.portIsDefault`). A port the operator chose is never swapped behind their back.
 */
export async function chooseHttpPort(config: { host: string; port: number; portIsDefault: boolean }): Promise<number> {
  if (await isPortFree(config.host, config.port)) return config.port;
  if (!config.portIsDefault) {
    throw new Error(
      `Port ${config.port} on ${config.host} is taken by another program. Stop it, or set PORT to a free port.`,
    );
  }
  return freePort(config.host);
}
