import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { AppError } from '@rayo/shared';
import { decode as independentDecode } from 'light-bolt11-decoder';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBolt11 } from '../../domain/bolt11.ts';
import type { DevnetInvoiceRequest, SignedDevnetInvoice } from './devnet-invoice.ts';
import { createDevnetSigner } from './devnet-signer.ts';

const nodeKey = secp256k1.utils.randomSecretKey();
const payee = bytesToHex(secp256k1.getPublicKey(nodeKey, true));
const lost: Error[] = [];
const signer = createDevnetSigner(nodeKey, (error) => lost.push(error));
afterAll(() => signer.close());

const request = (amountMsat: bigint, description = 'Café · Till'): DevnetInvoiceRequest => ({
  amountMsat,
  description,
  expirySeconds: 600,
});

/** Checks an invoice as a payer would: our decoder's signature check, an independent decoder, the preimage. */
function expectPayable(signed: SignedDevnetInvoice, amountMsat: bigint): void {
  const decoded = decodeBolt11(signed.paymentRequest);
  expect(decoded).toMatchObject({ currency: 'bcrt', amountMsat, paymentHash: signed.paymentHash, payee });
  expect(decoded.timestamp).toBe(signed.timestamp);
  const other = independentDecode(signed.paymentRequest);
  expect(other.sections).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: 'amount', value: String(amountMsat) }),
      expect.objectContaining({ name: 'payment_hash', value: signed.paymentHash }),
    ]),
  );
  expect(createHash('sha256').update(Buffer.from(signed.preimage, 'hex')).digest('hex')).toBe(signed.paymentHash);
}

describe('the devnet signing thread', () => {
  it("signs the first invoices on the caller's thread while it starts, then takes them", async () => {
    const starting = createDevnetSigner(nodeKey, (error) => lost.push(error));
    expectPayable(await starting.sign(request(1_000n)), 1_000n);
    expect(await starting.threadReady).toBe(true);
    await starting.close();
    expect(await signer.threadReady).toBe(true);
  });

  it('signs invoices that arrive together, each payable and with its own preimage and secret', async () => {
    const amounts = Array.from({ length: 40 }, (_, index) => 1_000n * BigInt(index + 1));
    const signed = await Promise.all(amounts.map((amountMsat) => signer.sign(request(amountMsat))));
    signed.forEach((invoice, index) => {
      expectPayable(invoice, amounts[index] as bigint);
    });
    expect(new Set(signed.map((invoice) => invoice.preimage)).size).toBe(amounts.length);
    expect(new Set(signed.map((invoice) => decodeBolt11(invoice.paymentRequest).paymentSecret)).size).toBe(
      amounts.length,
    );
    expect(lost).toEqual([]);
  });

  it('commits to a long description by its hash, and to any description when asked', async () => {
    const long = '☕'.repeat(300);
    const byLength = decodeBolt11((await signer.sign(request(1_000n, long))).paymentRequest);
    expect(byLength.description).toBeNull();
    expect(byLength.descriptionHash).toBe(createHash('sha256').update(long).digest('hex'));
    const asked = decodeBolt11(
      (await signer.sign({ ...request(1_000n, '[["text/plain","tip"]]'), hashDescription: true })).paymentRequest,
    );
    expect(asked.descriptionHash).toBe(createHash('sha256').update('[["text/plain","tip"]]').digest('hex'));
  });

  it("refuses what it cannot sign with signing's own error, and goes on signing", async () => {
    const refused = await signer.sign(request(0n)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('InvalidInput');
    expectPayable(await signer.sign(request(2_000n)), 2_000n);
    expect(lost).toEqual([]);
  });

  it('closed while signing, loses no invoice: the caller signs what it was given and all after', async () => {
    const closing = createDevnetSigner(nodeKey, (error) => lost.push(error));
    expect(await closing.threadReady).toBe(true);
    const amounts = Array.from({ length: 30 }, (_, index) => 5_000n + BigInt(index));
    const pending = amounts.map((amountMsat) => closing.sign(request(amountMsat)));
    await closing.close();
    const signed = await Promise.all(pending);
    signed.forEach((invoice, index) => {
      expectPayable(invoice, amounts[index] as bigint);
    });
    expectPayable(await closing.sign(request(7_000n)), 7_000n);
    expect(lost).toEqual([]);
  });

  it('does not keep a process alive once it has signed', async () => {
    const module = pathToFileURL(path.join(import.meta.dirname, 'devnet-signer.ts')).href;
    const script = `
      const { createDevnetSigner } = await import(${JSON.stringify(module)});
      const signer = createDevnetSigner(new Uint8Array(32).fill(7), (error) => console.error(error));
      // A starting thread keeps nothing alive either: a server's other handles do, here a timer.
      const alive = setInterval(() => {}, 1000);
      await signer.threadReady;
      clearInterval(alive);
      console.log(JSON.stringify(await signer.sign({ amountMsat: 3000n, description: 'x', expirySeconds: 60 })));
    `;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--eval', script], {
      timeout: 20_000,
    });
    expect(stderr).toBe('');
    const signed = JSON.parse(stdout) as SignedDevnetInvoice;
    expect(decodeBolt11(signed.paymentRequest).payee).toBe(
      bytesToHex(secp256k1.getPublicKey(new Uint8Array(32).fill(7), true)),
    );
  });
});
