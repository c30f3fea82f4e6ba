import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, onHttpPort } from './config.ts';
import { chooseHttpPort, freePort } from './ports.ts';

describe('the HTTP port', () => {
  const taken = net.createServer();
  let takenPort = 0;

  beforeAll(async () => {
    takenPort = await freePort();
    await new Promise<void>((resolve) => taken.listen(takenPort, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => taken.close(resolve)));

  it('is a free one when the default is taken and nothing relies on it', async () => {
    const config = { ...loadConfig({ HOST: '127.0.0.1' }), port: takenPort };
    expect(config.portIsDefault).toBe(true);
    const port = await chooseHttpPort(config);
    expect(port).not.toBe(takenPort);
    expect(onHttpPort(config, port).publicUrl).toBe(`http://localhost:${port}`);
  });

  it('is refused with a clear message when the operator set it and it is taken', async () => {
    const config = loadConfig({ HOST: '127.0.0.1', PORT: String(takenPort) });
    expect(config.portIsDefault).toBe(false);
    await expect(chooseHttpPort(config)).rejects.toThrow(`Port ${takenPort} on 127.0.0.1 is taken by another program`);
  });

  it('stays put behind a PUBLIC_URL, which a proxy or mailed links point at', async () => {
    const config = { ...loadConfig({ HOST: '127.0.0.1', PUBLIC_URL: 'https://pay.example.com' }), port: takenPort };
    expect(config.portIsDefault).toBe(false);
    await expect(chooseHttpPort(config)).rejects.toThrow('taken by another program');
  });

  it('is the configured one when it is free', async () => {
    const port = await freePort();
    expect(await chooseHttpPort(loadConfig({ HOST: '127.0.0.1', PORT: String(port) }))).toBe(port);
  });
});
