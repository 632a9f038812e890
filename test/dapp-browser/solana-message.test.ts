import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, parseSolanaMessage } from '../../src/dapp-browser/solana-message.ts';

const key = (n: number) => new Uint8Array(32).fill(n);

/** Legacy message: header, keys, blockhash, instructions (program index, account indexes, data). */
function legacy(o: { required?: number; keys?: Uint8Array[]; instructions?: number[][] } = {}): Uint8Array {
  const keys = o.keys ?? [key(1), key(2)];
  const ix = (o.instructions ?? [[1, 1, 0, 2, 0xaa, 0xbb]]).flat();
  return Uint8Array.from([
    o.required ?? 1,
    0,
    1,
    keys.length,
    ...keys.flatMap((k) => [...k]),
    ...key(7),
    (o.instructions ?? [[1]]).length,
    ...ix,
  ]);
}

describe('parseSolanaMessage', () => {
  it('reads a legacy message: signers (fee payer first), key and instruction counts', () => {
    expect(parseSolanaMessage(legacy())).toEqual({
      version: 'legacy',
      signers: [base58.encode(key(1))],
      accountKeys: 2,
      instructions: 1,
    });
    expect(parseSolanaMessage(legacy({ required: 2 }))?.signers).toEqual([
      base58.encode(key(1)),
      base58.encode(key(2)),
    ]);
  });

  it('reads a v0 message with an address lookup table', () => {
    const body = legacy();
    const v0 = Uint8Array.from([0x80, ...body, 1, ...key(9), 1, 3, 1, 4]);
    expect(parseSolanaMessage(v0)).toMatchObject({ version: 0, signers: [base58.encode(key(1))] });
  });

  it.each([
    ['empty', new Uint8Array()],
    ['truncated', legacy().slice(0, 40)],
    ['with trailing bytes', Uint8Array.from([...legacy(), 0])],
    ['an unknown version', Uint8Array.from([0x81, ...legacy()])],
    ['no signer', legacy({ required: 0 })],
    ['more signers than keys', legacy({ required: 3 })],
    ['a program index outside the keys', legacy({ instructions: [[5, 0, 0]] })],
    ['larger than a packet', new Uint8Array(MAX_MESSAGE_BYTES + 1)],
  ])('rejects a message that is %s', (_what, bytes) => {
    expect(parseSolanaMessage(bytes)).toBeNull();
  });
});
