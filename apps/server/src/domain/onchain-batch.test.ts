import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { Transaction as BitcoinjsTransaction, address as bitcoinjsAddress, networks, Psbt } from 'bitcoinjs-lib';
import fc from 'fast-check';
import * as ecc from 'tiny-secp256k1';
import { describe, expect, it } from 'vitest';
import {
  acceptSignedBatch,
  buildBatch,
  chooseRecipients,
  feeRateFromEstimate,
  InsufficientFundsError,
  ONCHAIN_DUST_SATS,
  planRecipients,
  RBF_SEQUENCE,
  type Recipient,
  SignedBatchError,
  signBatch,
  splitFee,
  type WalletUtxo,
  withPreviousTransactions,
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

describe('choosing whom the wallet can pay', () => {
  const due = (sats: bigint, name: string) => ({
    organizationId: name,
    destination: deriveReceiveAddress(elsewhere, name.charCodeAt(0), 'regtest'),
    sats,
  });

  it('takes debts in the order given, skips one that does not fit, and goes on with the next', () => {
    const ordered = [due(29_700n, 'a'), due(99_000n, 'b'), due(19_800n, 'c'), due(20_000n, 'd')];
    const { paid, waiting } = chooseRecipients(ordered, [{ valueSats: 60_000n }], 2n);
    expect(paid.map((r) => r.organizationId)).toEqual(['a', 'c']);
    expect(waiting.map((r) => r.organizationId)).toEqual(['b', 'd']);
    // Coins worth less than the fee of spending them count for nothing.
    expect(chooseRecipients([due(1_000n, 'a')], [{ valueSats: 136n }, { valueSats: 135n }], 2n).paid).toEqual([]);
  });

  it('chooses only what a batch can then be built for (property)', () => {
    const templates = [0, 1, 2, 3, 4].map((i) => utxo(100 + i, 1n));
    const recipients = [0, 1, 2, 3, 4, 5].map((i) => due(1n, String.fromCharCode(97 + i)));
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 546n, max: 300_000n }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.bigInt({ min: 1n, max: 400_000n }), { minLength: 1, maxLength: 5 }),
        fc.bigInt({ min: 1n, max: 50n }),
        (debts, coinValues, feeRate) => {
          const ordered = debts.map((sats, i) => ({ ...(recipients[i] as Recipient), sats }));
          const coins = coinValues.map((valueSats, i) => ({ ...(templates[i] as WalletUtxo), valueSats }));
          const { paid, waiting } = chooseRecipients(ordered, coins, feeRate);
          expect(paid.length + waiting.length).toBe(ordered.length);
          if (paid.length === 0) return;
          const built = buildBatch({
            account,
            origin,
            utxos: coins,
            recipients: paid,
            feeRate,
            changeIndex: 0,
            network: 'regtest',
          });
          expect(built.feeSats).toBeGreaterThan(0n);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('building and signing a batch', () => {
  const recipients = [
    { organizationId: 'a', destination: deriveReceiveAddress(elsewhere, 0, 'regtest'), sats: 30_000n },
    { organizationId: 'b', destination: deriveReceiveAddress(elsewhere, 1, 'regtest'), sats: 12_345n },
  ];
  const changeAddress = deriveWalletAddress(account, 1, 7, 'regtest');
  const changeIndex = 7;

  it('pays each recipient in order, change last, at the fee rate, as an independent decoder reads it', () => {
    const utxos = [utxo(0, 20_000n), utxo(1, 40_000n), utxo(2, 5_000n)];
    const built = buildBatch({ account, origin, utxos, recipients, feeRate: 3n, changeIndex, network: 'regtest' });
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
    expect(built.changeAddress).toBe(changeAddress);
    // The change is named as the wallet's own (BIP 174 output bip32 derivation), so the wallet
    // does not show it as a payment out; every input signals replaceability (BIP 125).
    const change = psbt.data.outputs[2]?.bip32Derivation?.[0];
    expect(Buffer.from(change?.masterFingerprint ?? []).toString('hex')).toBe('12345678');
    expect(change?.path).toBe("m/84'/1'/0'/1/7");
    expect(Buffer.from(change?.pubkey ?? []).toString('hex')).toBe(
      Buffer.from(account.deriveChild(1).deriveChild(7).publicKey as Uint8Array).toString('hex'),
    );
    expect(psbt.data.outputs.slice(0, 2).every((output) => output.bip32Derivation === undefined)).toBe(true);
    expect(psbt.txInputs.every((txInput) => txInput.sequence === RBF_SEQUENCE)).toBe(true);
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
        changeIndex,
        network: 'regtest',
      }),
    ).toThrow(InsufficientFundsError);
  });

  it('takes back only this batch, signed, as PSBT or raw transaction', () => {
    const utxos = [utxo(4, 100_000n)];
    const built = buildBatch({ account, origin, utxos, recipients, feeRate: 1n, changeIndex, network: 'regtest' });
    const raw = signBatch(built.psbt, account, built.inputs);
    expect(acceptSignedBatch(built.psbt, raw)).toBe(raw);
    expect(() => acceptSignedBatch(built.psbt, built.psbt)).toThrow('The transaction is not signed yet');
    const other = buildBatch({
      account,
      origin,
      utxos: [utxo(5, 100_000n)],
      recipients,
      feeRate: 1n,
      changeIndex,
      network: 'regtest',
    });
    expect(() => acceptSignedBatch(built.psbt, signBatch(other.psbt, account, other.inputs))).toThrow(
      'not the transaction of this batch',
    );
    expect(() => acceptSignedBatch(built.psbt, 'not a transaction!')).toThrow(SignedBatchError);
  });
});

describe("a batch signed in the operator's own wallet", () => {
  // The wallet holds the master key; Rayo the account key and its origin.
  const master = HDKey.fromMasterSeed(randomBytes(32));
  const walletAccount = master.derive("m/84'/1'/0'");
  const walletOrigin = { fingerprint: master.fingerprint, path: [0x80000054, 0x80000001, 0x80000000] };
  const recipients = [
    { organizationId: 'a', destination: deriveReceiveAddress(elsewhere, 3, 'regtest'), sats: 25_000n },
  ];
  const coins: WalletUtxo[] = [0, 1].map((index) => ({
    txid: randomBytes(32).toString('hex'),
    vout: 0,
    valueSats: 20_000n,
    address: deriveReceiveAddress(walletAccount, index, 'regtest'),
    change: 0,
    index,
  }));
  const build = () =>
    buildBatch({
      account: walletAccount,
      origin: walletOrigin,
      utxos: coins,
      recipients,
      feeRate: 2n,
      changeIndex: 0,
      network: 'regtest',
    });

  /** bitcoinjs-lib's view of a key that can derive and sign. */
  type HdSigner = Parameters<Psbt['signAllInputsHD']>[0];
  function hdSigner(key: HDKey): HdSigner {
    return {
      publicKey: key.publicKey as Uint8Array,
      fingerprint: Buffer.from(key.fingerprint.toString(16).padStart(8, '0'), 'hex'),
      derivePath: (path: string) => hdSigner(key.derive(path)),
      sign: (hash: Uint8Array) => ecc.sign(hash, key.privateKey as Uint8Array),
    };
  }

  /** bitcoinjs-lib signs with the keys the PSBT's derivations name, as Electrum or Sparrow do. */
  function signInWallet(psbtBase64: string, root: HDKey, options: { finalize: boolean }): string {
    const psbt = Psbt.fromBase64(psbtBase64, { network: networks.regtest });
    psbt.signAllInputsHD(hdSigner(root));
    if (options.finalize) psbt.finalizeAllInputs();
    return psbt.toBase64();
  }

  it('is taken back finalized (BIP 174 final_scriptwitness), as wallets hand it back, or with partial signatures', () => {
    const built = build();
    const finalized = signInWallet(built.psbt, master, { finalize: true });
    expect(Psbt.fromBase64(finalized).data.inputs.every((input) => input.finalScriptWitness && !input.partialSig)).toBe(
      true,
    );
    const raw = acceptSignedBatch(built.psbt, finalized);
    const tx = BitcoinjsTransaction.fromHex(raw);
    expect(tx.getId()).toBe(built.txid);
    expect(raw).toBe(Psbt.fromBase64(finalized).extractTransaction().toHex());
    expect(acceptSignedBatch(built.psbt, signInWallet(built.psbt, master, { finalize: false }))).toBe(raw);
    expect(acceptSignedBatch(built.psbt, raw)).toBe(raw);
  });

  it('is refused when another key signed it', () => {
    const built = build();
    const stranger = HDKey.fromMasterSeed(randomBytes(32));
    // Same paths, another master: bitcoinjs-lib signs nothing whose fingerprint is not its own.
    const forged = Psbt.fromBase64(built.psbt, { network: networks.regtest });
    forged.data.inputs.forEach((_, index) => {
      const key = stranger.derive(`m/84'/1'/0'/0/${index}`);
      forged.signInput(index, {
        publicKey: walletAccount.deriveChild(0).deriveChild(index).publicKey as Uint8Array,
        sign: (hash: Uint8Array) => ecc.sign(hash, key.privateKey as Uint8Array),
      });
    });
    forged.finalizeAllInputs();
    expect(() => acceptSignedBatch(built.psbt, forged.toBase64())).toThrow('The signature of input 1 does not match');
  });

  it("carries each input's previous transaction for hardware wallets, checked against its txid", () => {
    const built = build();
    const previous = new Map(
      coins.map((coin) => {
        const parent = new BitcoinjsTransaction();
        parent.addInput(randomBytes(32), 0);
        parent.addOutput(bitcoinjsAddress.toOutputScript(coin.address, networks.regtest), coin.valueSats);
        return [coin.txid, parent] as const;
      }),
    );
    // Coins whose txids are those parents' hashes, so the parents are theirs.
    const real = coins.map((coin) => ({ ...coin, txid: (previous.get(coin.txid) as BitcoinjsTransaction).getId() }));
    const rebuilt = buildBatch({
      account: walletAccount,
      origin: walletOrigin,
      utxos: real,
      recipients,
      feeRate: 2n,
      changeIndex: 0,
      network: 'regtest',
    });
    const byTxid = new Map([...previous.values()].map((parent) => [parent.getId(), parent.toHex()]));
    const psbt = Psbt.fromBase64(withPreviousTransactions(rebuilt.psbt, byTxid), { network: networks.regtest });
    psbt.data.inputs.forEach((input, index) => {
      const hash = Buffer.from(psbt.txInputs[index]?.hash ?? [])
        .reverse()
        .toString('hex');
      expect(BitcoinjsTransaction.fromBuffer(input.nonWitnessUtxo as Uint8Array).getId()).toBe(hash);
    });
    // A parent that is not the input's previous transaction is refused.
    const swapped = new Map(
      [...byTxid.keys()].map((txid, i, all) => [txid, byTxid.get(all[1 - i] as string) as string]),
    );
    expect(() => withPreviousTransactions(rebuilt.psbt, swapped)).toThrow();
    expect(() => withPreviousTransactions(built.psbt, byTxid)).toThrow('no previous transaction');
  });
});
