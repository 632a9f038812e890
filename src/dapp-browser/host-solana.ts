/**
 * `wallet_signMessage` and `wallet_signTransaction` for SOL (docs/provider.md §4): what may be signed, and what the
 * prompt shows about it. The signature itself is the development wallet's.
 */
import { base64 } from '@scure/base';
import type { Params } from '../provider/protocol.ts';
import type { Account } from './dev-wallet.ts';
import { invalid } from './host-errors.ts';
import type { PromptText } from './host-session.ts';
import { parseSolanaMessage } from './solana-message.ts';

/** Longest message `wallet_signMessage` signs (UTF-8 bytes). */
export const MAX_SIGN_MESSAGE_BYTES = 16_384;

/** The message of a `wallet_signMessage` (1 to {@link MAX_SIGN_MESSAGE_BYTES} bytes) and its prompt. */
export function messageToSign(p: Params, account: Account): { bytes: Uint8Array; prompt: PromptText } {
  if (typeof p.message !== 'string')
    throw invalid('INVALID_PARAMS', 'wallet_signMessage needs { message: string }');
  const bytes = new TextEncoder().encode(p.message);
  if (bytes.length === 0 || bytes.length > MAX_SIGN_MESSAGE_BYTES) {
    throw invalid('INVALID_PARAMS', `the message must be 1 to ${MAX_SIGN_MESSAGE_BYTES} bytes`);
  }
  return {
    bytes,
    prompt: {
      title: 'Sign a message (Solana)',
      details: [
        { label: 'Account', value: account.address },
        { label: 'Message', value: p.message },
      ],
    },
  };
}

/** The message bytes of a `wallet_signTransaction` (a Solana message `account` must sign) and its prompt. */
export function transactionToSign(p: Params, account: Account): { bytes: Uint8Array; prompt: PromptText } {
  let bytes: Uint8Array;
  try {
    if (typeof p.transaction !== 'string') throw new Error();
    bytes = base64.decode(p.transaction);
  } catch {
    throw invalid(
      'INVALID_PARAMS',
      'wallet_signTransaction needs { transaction: base64 of the message bytes }',
    );
  }
  const info = parseSolanaMessage(bytes);
  if (!info) throw invalid('INVALID_PARAMS', 'the transaction is not a Solana (legacy or v0) message');
  if (!info.signers.includes(account.publicKey)) {
    throw invalid('NOT_A_SIGNER', `${account.address} is not a required signer of this transaction`);
  }
  return {
    bytes,
    prompt: {
      title: 'Sign a transaction (Solana)',
      details: [
        { label: 'Account', value: account.address },
        { label: 'Fee payer', value: info.signers[0] ?? '' },
        { label: 'Message', value: `${info.version === 'legacy' ? 'legacy' : 'v0'}, ${bytes.length} bytes` },
        { label: 'Instructions', value: String(info.instructions) },
      ],
    },
  };
}
