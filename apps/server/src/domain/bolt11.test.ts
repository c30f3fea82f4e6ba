import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { AppError } from '@rayo/shared';
import { bech32 } from '@scure/base';
import fc from 'fast-check';
import { decode as independentDecode } from 'light-bolt11-decoder';
import { describe, expect, it } from 'vitest';
import { type Bolt11Fields, decodeBolt11, encodeBolt11 } from './bolt11.ts';

// Every example in BOLT 11 is signed with this key.
const SPEC_KEY = hexToBytes('e126f68f7eafcc8b74f54d269fe206be715000f94dac067d1c04a8ca3b2db734');
const SPEC_PAYEE = '03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad';
const SPEC_HASH = '0001020304050607080900010203040506070809000102030405060708090102';
const SPEC_TIMESTAMP = 1496314658;

const CUP_OF_COFFEE =
  'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpuaztrnwngzn3kdzw5hydlzf03qdgm2hdq27cqv3agm2awhz5se903vruatfhq77w3ls4evs3ch9zw97j25emudupq63nyw24cg27h2rspfj9srp';

function fieldsOf(overrides: Partial<Bolt11Fields> = {}): Bolt11Fields {
  return {
    currency: 'bcrt',
    amountMsat: 2_500_000n,
    timestamp: 1_700_000_000,
    paymentHash: '11'.repeat(32),
    paymentSecret: '22'.repeat(32),
    description: 'Coffee',
    expirySeconds: 900,
    minFinalCltvExpiry: 80,
    ...overrides,
  };
}

function expectInvalid(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('InvalidInput');
    return;
  }
  expect.fail('expected an InvalidInput error');
}

/** Re-encodes an invoice with one data word changed, keeping a valid bech32 checksum. */
function tamper(invoice: string, wordIndex: number): string {
  const { prefix, words } = bech32.decode(invoice as `${string}1${string}`, false);
  const changed = [...words];
  changed[wordIndex] = ((changed[wordIndex] ?? 0) + 1) % 32;
  return bech32.encode(prefix, changed, false);
}

describe('decodeBolt11 on the BOLT 11 examples', () => {
  it('decodes and verifies "1 cup coffee": amount, timestamp, hash, description, expiry, recovered payee', () => {
    const invoice = decodeBolt11(CUP_OF_COFFEE);
    expect(invoice).toEqual({
      paymentRequest: CUP_OF_COFFEE,
      currency: 'bc',
      amountMsat: 250_000_000n,
      timestamp: SPEC_TIMESTAMP,
      paymentHash: SPEC_HASH,
      paymentSecret: null,
      description: '1 cup coffee',
      descriptionHash: null,
      expirySeconds: 60,
      minFinalCltvExpiry: 18,
      expiresAt: new Date((SPEC_TIMESTAMP + 60) * 1000),
      payee: SPEC_PAYEE,
    });
  });

  it('accepts the upper-case form and a lightning: prefix', () => {
    const upper =
      'LNBC25M1PVJLUEZPP5QQQSYQCYQ5RQWZQFQQQSYQCYQ5RQWZQFQQQSYQCYQ5RQWZQFQYPQDQ5VDHKVEN9V5SXYETPDEESSP5ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYGS9Q5SQQQQQQQQQQQQQQQPQSQ67GYE39HFG3ZD8RGC80K32TVY9XK2XUNWM5LZEXNVPX6FD77EN8QAQ424DXGT56CAG2DPT359K3SSYHETKTKPQH24JQNJYW6UQD08SGPTQ44QU';
    const invoice = decodeBolt11(`lightning:${upper}`);
    expect(invoice.amountMsat).toBe(2_500_000_000n);
    expect(invoice.description).toBe('coffee beans');
    expect(invoice.paymentSecret).toBe('11'.repeat(32));
    expect(invoice.payee).toBe(SPEC_PAYEE);
  });

  it('decodes a hashed description, a pico-bitcoin amount and a non-default min_final_cltv_expiry', () => {
    const hashed = decodeBolt11(
      'lnbc20m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqscc6gd6ql3jrc5yzme8v4ntcewwz5cnw92tz0pc8qcuufvq7khhr8wpald05e92xw006sq94mg8v2ndf4sefvf9sygkshp5zfem29trqq2yxxz7',
    );
    expect(hashed.description).toBeNull();
    expect(hashed.descriptionHash).toBe(
      bytesToHex(
        sha256(
          utf8ToBytes(
            'One piece of chocolate cake, one icecream cone, one pickle, one slice of swiss cheese, one slice of salami, one lollypop, one piece of cherry pie, one sausage, one cupcake, and one slice of watermelon',
          ),
        ),
      ),
    );
    expect(hashed.payee).toBe(SPEC_PAYEE);

    const pico = decodeBolt11(
      'lnbc9678785340p1pwmna7lpp5gc3xfm08u9qy06djf8dfflhugl6p7lgza6dsjxq454gxhj9t7a0sd8dgfkx7cmtwd68yetpd5s9xar0wfjn5gpc8qhrsdfq24f5ggrxdaezqsnvda3kkum5wfjkzmfqf3jkgem9wgsyuctwdus9xgrcyqcjcgpzgfskx6eqf9hzqnteypzxz7fzypfhg6trddjhygrcyqezcgpzfysywmm5ypxxjemgw3hxjmn8yptk7untd9hxwg3q2d6xjcmtv4ezq7pqxgsxzmnyyqcjqmt0wfjjq6t5v4khxxqyjw5qcqp2rzjq0gxwkzc8w6323m55m4jyxcjwmy7stt9hwkwe2qxmy8zpsgg7jcuwz87fcqqeuqqqyqqqqlgqqqqn3qq9qn07ytgrxxzad9hc4xt3mawjjt8znfv8xzscs7007v9gh9j569lencxa8xeujzkxs0uamak9aln6ez02uunw6rd2ht2sqe4hz8thcdagpleym0j',
    );
    expect(pico.amountMsat).toBe(967_878_534n);
    expect(pico.expirySeconds).toBe(604_800);
    expect(pico.minFinalCltvExpiry).toBe(10);
    expect(pico.payee).toBe(SPEC_PAYEE);
  });

  it('skips unknown fields and hash, secret and key fields of the wrong length', () => {
    const invoice = decodeBolt11(
      'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq2qrqqqfppnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqppnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpp4qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhpnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhp4qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqspnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqsp4qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnp5qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnpkqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq2jxxfsnucm4jf4zwtznpaxphce606fvhvje5x7d4gw7n73994hgs7nteqvenq8a4ml8aqtchv5d9pf7l558889hp4yyrqv6a7zpq9fgpskqhza',
    );
    expect(invoice.paymentHash).toBe(SPEC_HASH);
    expect(invoice.paymentSecret).toBe('11'.repeat(32));
    expect(invoice.descriptionHash).toBeNull();
    expect(invoice.payee).toBe(SPEC_PAYEE);
  });

  it.each([
    [
      'a wrong checksum',
      'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrnt',
    ],
    [
      'no separator',
      'pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny',
    ],
    [
      'mixed case',
      'LNBC2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny',
    ],
    [
      'a signature that recovers no key',
      'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpuaxtrnwngzn3kdzw5hydlzf03qdgm2hdq27cqv3agm2awhz5se903vruatfhq77w3ls4evs3ch9zw97j25emudupq63nyw24cg27h2rspk28uwq',
    ],
    [
      'a string too short for a signature',
      'lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6na6hlh',
    ],
    [
      'an unknown multiplier',
      'lnbc2500x1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpujr6jxr9gq9pv6g46y7d20jfkegkg4gljz2ea2a3m9lmvvr95tq2s0kvu70u3axgelz3kyvtp2ywwt0y8hkx2869zq5dll9nelr83zzqqpgl2zg',
    ],
    [
      'sub-millisatoshi precision',
      'lnbc2500000001p1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu7hqtk93pkf7sw55rdv4k9z2vj050rxdr6za9ekfs3nlt5lr89jqpdmxsmlj9urqumg0h9wzpqecw7th56tdms40p2ny9q4ddvjsedzcplva53s',
    ],
  ])('rejects the BOLT 11 invalid example with %s', (_, invoice) => {
    expectInvalid(() => decodeBolt11(invoice));
  });
});

describe('encodeBolt11', () => {
  it.each([
    [1n, '10p'],
    [123n, '1230p'],
    [100n, '1n'],
    [1_000n, '10n'],
    [100_000n, '1u'],
    [250_000_000n, '2500u'],
    [100_000_000n, '1m'],
    [150_000_000_000n, '1500m'],
    [100_000_000_000n, '1'],
    [2_100_000_000_000_000_000n, '21000000'],
  ])('writes %s msat with the shortest multiplier, as %s', (amountMsat, amount) => {
    const invoice = encodeBolt11(fieldsOf({ amountMsat }), SPEC_KEY);
    expect(invoice.startsWith(`lnbcrt${amount}1`)).toBe(true);
    expect(decodeBolt11(invoice).amountMsat).toBe(amountMsat);
  });

  it('writes no amount when the payer chooses it, and a description hash instead of a description', () => {
    const descriptionHash = bytesToHex(sha256(utf8ToBytes('[["text/plain","Tip jar"]]')));
    const invoice = encodeBolt11(fieldsOf({ amountMsat: null, description: undefined, descriptionHash }), SPEC_KEY);
    expect(invoice.startsWith('lnbcrt1')).toBe(true);
    const decoded = decodeBolt11(invoice);
    expect(decoded.amountMsat).toBeNull();
    expect(decoded.description).toBeNull();
    expect(decoded.descriptionHash).toBe(descriptionHash);
    expect(independentDecode(invoice).sections).toContainEqual(
      expect.objectContaining({ name: 'description_hash', value: descriptionHash }),
    );
  });

  it('refuses an amount of zero, and both or neither of description and description hash', () => {
    expectInvalid(() => encodeBolt11(fieldsOf({ amountMsat: 0n }), SPEC_KEY));
    expectInvalid(() => encodeBolt11(fieldsOf({ descriptionHash: '00'.repeat(32) }), SPEC_KEY));
    expectInvalid(() => encodeBolt11(fieldsOf({ description: undefined }), SPEC_KEY));
    expectInvalid(() => encodeBolt11(fieldsOf({ description: 'x'.repeat(640) }), SPEC_KEY));
  });

  it('signs with the key whose public key a decoder recovers, or states it in n', () => {
    const privateKey = secp256k1.utils.randomSecretKey();
    const publicKey = bytesToHex(secp256k1.getPublicKey(privateKey, true));
    expect(decodeBolt11(encodeBolt11(fieldsOf(), privateKey)).payee).toBe(publicKey);
    const withPayee = encodeBolt11(fieldsOf({ includePayee: true }), privateKey);
    expect(decodeBolt11(withPayee).payee).toBe(publicKey);
    expect(independentDecode(withPayee).sections).toContainEqual(
      expect.objectContaining({ name: 'payee', value: publicKey }),
    );
  });
});

describe('tampered invoices', () => {
  it('fail verification when the invoice names its payee', () => {
    const invoice = encodeBolt11(fieldsOf({ includePayee: true }), SPEC_KEY);
    // Words 0, 27 and 70 lie in the timestamp, the payment hash and the payment secret.
    for (const wordIndex of [0, 27, 70]) expectInvalid(() => decodeBolt11(tamper(invoice, wordIndex)));
  });

  it('recover some other payee when the invoice does not name one', () => {
    const invoice = encodeBolt11(fieldsOf(), SPEC_KEY);
    const tampered = tamper(invoice, 27);
    let payee: string | undefined;
    try {
      payee = decodeBolt11(tampered).payee;
    } catch (error) {
      expect((error as AppError).code).toBe('InvalidInput');
    }
    expect(payee).not.toBe(SPEC_PAYEE);
  });

  it('fail verification when the signature is changed to its high-S twin', () => {
    const invoice = encodeBolt11(fieldsOf(), SPEC_KEY);
    const { prefix, words } = bech32.decode(invoice as `${string}1${string}`, false);
    const signature = bech32.fromWords(words.slice(-104));
    const parsed = secp256k1.Signature.fromBytes(signature.subarray(0, 64), 'compact');
    const highS = new secp256k1.Signature(parsed.r, secp256k1.Point.Fn.ORDER - parsed.s).toBytes('compact');
    // Negating s flips which of the two candidate keys the recovery id picks.
    const recoveryId = (signature[64] ?? 0) ^ 1;
    const forged = bech32.encode(
      prefix,
      [...words.slice(0, -104), ...bech32.toWords(Uint8Array.from([...highS, recoveryId]))],
      false,
    );
    expectInvalid(() => decodeBolt11(forged));
  });
});

describe('round trips', () => {
  const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex);
  const description = fc.string({ unit: 'grapheme', maxLength: 120 }).filter((text) => utf8ToBytes(text).length <= 639);
  const fieldsArbitrary = fc.record({
    currency: fc.constantFrom('bc', 'tb', 'bcrt'),
    amountMsat: fc.option(fc.bigInt({ min: 1n, max: 2_100_000_000_000_000_000n }), { nil: null }),
    timestamp: fc.integer({ min: 0, max: 2 ** 35 - 1 }),
    paymentHash: hex32,
    paymentSecret: hex32,
    description,
    expirySeconds: fc.integer({ min: 0, max: 2 ** 32 }),
    minFinalCltvExpiry: fc.integer({ min: 0, max: 5000 }),
    includePayee: fc.boolean(),
  });

  it('decode(encode(fields)) gives the fields back and the signer as payee', () => {
    fc.assert(
      fc.property(fieldsArbitrary, (fields) => {
        const invoice = decodeBolt11(encodeBolt11(fields, SPEC_KEY));
        expect(invoice).toMatchObject({
          currency: fields.currency,
          amountMsat: fields.amountMsat,
          timestamp: fields.timestamp,
          paymentHash: fields.paymentHash,
          paymentSecret: fields.paymentSecret,
          description: fields.description,
          descriptionHash: null,
          expirySeconds: fields.expirySeconds,
          minFinalCltvExpiry: fields.minFinalCltvExpiry,
          expiresAt: new Date((fields.timestamp + fields.expirySeconds) * 1000),
          payee: SPEC_PAYEE,
        });
      }),
      { numRuns: 150 },
    );
  });

  it('every invoice we encode reads the same in the independent light-bolt11-decoder', () => {
    fc.assert(
      fc.property(fieldsArbitrary, (fields) => {
        const paymentRequest = encodeBolt11(fields, SPEC_KEY);
        const other = independentDecode(paymentRequest);
        const value = (name: string) =>
          (other.sections.find((section) => section.name === name) as { value?: unknown } | undefined)?.value;
        expect(value('amount')).toBe(fields.amountMsat === null ? undefined : fields.amountMsat.toString());
        expect(value('timestamp')).toBe(fields.timestamp);
        expect(value('payment_hash')).toBe(fields.paymentHash);
        expect(value('payment_secret')).toBe(fields.paymentSecret);
        expect(value('description')).toBe(fields.description);
        expect(value('expiry')).toBe(fields.expirySeconds);
        expect(value('min_final_cltv_expiry')).toBe(fields.minFinalCltvExpiry);
        expect(value('feature_bits')).toMatchObject({ var_onion_optin: 'required', payment_secret: 'required' });
      }),
      { numRuns: 150 },
    );
  });

  it('upper case decodes to the same invoice', () => {
    const invoice = encodeBolt11(fieldsOf(), SPEC_KEY);
    expect(decodeBolt11(invoice.toUpperCase())).toEqual(decodeBolt11(invoice));
  });
});
