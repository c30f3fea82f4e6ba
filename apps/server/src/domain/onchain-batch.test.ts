import { randomBytes } from 'node:crypto';
import { Transaction as BitcoinjsTransaction, address as bitcoinjsAddress, networks, Psbt } from 'bitcoinjs-lib';
import { describe, expect, it } from 'vitest';
import {
  acceptSignedBatch,
  buildBatch,
  feeRateFromEstimate,
  InsufficientFundsError,
  ONCHAIN_DUST_SATS,
  planRecipients,
  SignedBatchError,
  signBatch,
  splitFee,
  type WalletUtxo,
} from './onchain-batch.ts';
import { accountKeyFromSeed, deriveReceiveAddress, deriveWalletAddress } from './onchain-wallet.ts';

const account = accountKeyFromSeed(randomBytes(32));
const elsewhere = accountKeyFromSeed(randomBytes(32));
const origin = { fingerprint: 0x12345678, path: [0x80000054, 0x80000001, 0x80000000] };

function utxo(index: number, valueSats: bigint): WalletUtxo {
  return {
    txid: randomBytes(32).toString('hex'),
    vout: index % 3,
    valueSats,
    address: deriveReceiveAddress(account, index, 'regtest'),
    change: 0,
    index,
  };
}

describe('planning the recipients of a batch', () => {
  it('pays whole sats rounded down, and leaves out organizations below the minimum or dust', () => {
    const recipients = planRecipients(
      [
        { organizationId: 'a', destination: 'A', owedMsat: 9_909_900n },
        { organizationId: 'b', destination: 'B', owedMsat: 999_999n },
        { organizationId: 'c', destination: 'C', owedMsat: 1_000_000n },
      ],
      1_000n,
    );
    expect(recipients).toEqual([
      { organizationId: 'a', destination: 'A', sats: 9_909n },
      { organizationId: 'c', destination: 'C', sats: 1_000n },
    ]);
    // A minimum below dust is raised to dust.
    expect(planRecipients([{ organizationId: 'd', destination: 'D', owedMsat: 545_999n }], 1n)).toEqual([]);
    expect(planRecipients([{ organizationId: 'd', destination: 'D', owedMsat: 546_000n }], 1n)).toHaveLength(1);
    expect(ONCHAIN_DUST_SATS).toBe(546n);
  });

  it('rounds fee estimates up to whole sat/vB and refuses silly ones', () => {
    expect(feeRateFromEstimate(1.2)).toBe(2n);
    expect(feeRateFromEstimate(0.3)).toBe(1n);
    expect(feeRateFromEstimate(12)).toBe(12n);
    expect(() => feeRateFromEstimate(0)).toThrow(RangeError);
    expect(() => feeRateFromEstimate(Number.NaN)).toThrow(RangeError);
    expect(() => feeRateFromEstimate(1_000.5)).toThrow(RangeError);
  });

  it('splits the network fee in equal parts that add up', () => {
    expect(splitFee(10n, 3)).toEqual([4n, 3n, 3n]);
    expect(splitFee(9n, 3)).toEqual([3n, 3n, 3n]);
    expect(splitFee(5n, 0)).toEqual([]);
  });
});

describe('building and signing a batch', () => {
  const recipients = [
    { organizationId: 'a', destination: deriveReceiveAddress(elsewhere, 0, 'regtest'), sats: 30_000n },
    { organizationId: 'b', destination: deriveReceiveAddress(elsewhere, 1, 'regtest'), sats: 12_345n },
  ];
  const changeAddress = deriveWalletAddress(account, 1, 0, 'regtest');

  it('pays each recipient in order, change last, at the fee rate, as an independent decoder reads it', () => {
    const utxos = [utxo(0, 20_000n), utxo(1, 40_000n), utxo(2, 5_000n)];
    const built = buildBatch({ account, origin, utxos, recipients, feeRate: 3n, changeAddress, network: 'regtest' });
    const psbt = Psbt.fromBase64(built.psbt, { network: networks.regtest });
    const outputs = psbt.txOutputs.map((output) => ({
      address: bitcoinjsAddress.fromOutputScript(output.script, networks.regtest),
      value: BigInt(output.value),
    }));
    expect(outputs.slice(0, 2)).toEqual([
      { address: recipients[0]?.destination, value: 30_000n },
      { address: recipients[1]?.destination, value: 12_345n },
    ]);
    expect(outputs[2]).toEqual({ address: changeAddress, value: built.changeSats });
    const inputSats = psbt.data.inputs.reduce((sum, input) => sum + BigInt(input.witnessUtxo?.value ?? 0), 0n);
    expect(inputSats).toBe(built.inputs.reduce((sum, input) => sum + input.valueSats, 0n));
    const outputSats = outputs.reduce((sum, output) => sum + output.value, 0n);
    expect(inputSats - outputSats).toBe(built.feeSats);
    // The PSBT names each input's key for the operator's wallet.
    const derivation = psbt.data.inputs[0]?.bip32Derivation?.[0];
    expect(Buffer.from(derivation?.masterFingerprint ?? []).toString('hex')).toBe('12345678');
    expect(derivation?.path).toMatch(/^m\/84'\/1'\/0'\/0\/[0-2]$/);
    // Signed, the transaction keeps its txid and pays at least the rate asked for.
    const raw = signBatch(built.psbt, account, built.inputs);
    const tx = BitcoinjsTransaction.fromHex(raw);
    expect(tx.getId()).toBe(built.txid);
    expect(tx.ins.every((input) => input.witness.length === 2)).toBe(true);
    expect(built.feeSats).toBeGreaterThanOrEqual(BigInt(tx.virtualSize()) * 3n);
    expect(built.feeSats).toBeLessThanOrEqual(BigInt(tx.virtualSize() + 2) * 3n);
  });

  it('refuses to build what the wallet cannot pay', () => {
    expect(() =>
      buildBatch({
        account,
        origin,
        utxos: [utxo(3, 40_000n)],
        recipients,
        feeRate: 3n,
        changeAddress,
        network: 'regtest',
      }),
    ).toThrow(InsufficientFundsError);
  });

  it('takes back only this batch, signed, as PSBT or raw transaction', () => {
    const utxos = [utxo(4, 100_000n)];
    const built = buildBatch({ account, origin, utxos, recipients, feeRate: 1n, changeAddress, network: 'regtest' });
    const raw = signBatch(built.psbt, account, built.inputs);
    expect(acceptSignedBatch(built.txid, raw)).toBe(raw);
    expect(() => acceptSignedBatch(built.txid, built.psbt)).toThrow(SignedBatchError);
    expect(() => acceptSignedBatch('00'.repeat(32), raw)).toThrow('not the transaction of this batch');
    expect(() => acceptSignedBatch(built.txid, 'not a transaction!')).toThrow(SignedBatchError);
  });
});
