/**
 * The identity methods (docs/provider.md §4): `id_signMessage` signs only the platform's accounts sign-in challenge
 * for this wallet's LTC address; `id_connect` pairs the LTC identity with the one trusted identity origin.
 */
import { challengeText, parseChallenge } from '../accounts/challenge.ts';
import type { Params } from '../provider/protocol.ts';
import { ERROR_CODES, identityPairingText } from '../provider/protocol.ts';
import type { Account, DevWallet } from './dev-wallet.ts';
import { err, invalid } from './host-errors.ts';
import type { PromptText } from './host-session.ts';

/** The wallet's LTC account, the identity of both methods. */
export function ltcAccount(wallet: DevWallet): Account {
  const a = wallet.account('LTC');
  if (!a)
    throw err(ERROR_CODES.unsupportedMethod, 'NO_WALLET_FOR_CHAIN', 'the user has no LTC wallet', {
      ticker: 'LTC',
    });
  return a;
}

/** The canonical sign-in challenge of an `id_signMessage`, for `domain` and `account`, not expired; its prompt. */
export function signInChallenge(
  origin: string,
  p: Params,
  connected: Set<string>,
  account: Account,
  expect: { domain: string; now: () => number },
): { message: string; prompt: PromptText } {
  if (!connected.has('LTC')) {
    throw err(ERROR_CODES.chainDisconnected, 'CHAIN_NOT_CONNECTED', 'LTC was not part of wallet_connect', {
      ticker: 'LTC',
    });
  }
  if (typeof p.message !== 'string')
    throw invalid('INVALID_PARAMS', 'id_signMessage needs { message: string }');
  const fields = parseChallenge(p.message);
  let canonical = false;
  try {
    canonical = fields !== null && challengeText(fields) === p.message;
  } catch {
    canonical = false;
  }
  if (!fields || !canonical) {
    throw invalid('NOT_A_SIGN_IN_CHALLENGE', 'id_signMessage signs only the accounts sign-in challenge');
  }
  if (fields.domain !== expect.domain) {
    throw invalid('CHALLENGE_WRONG_DOMAIN', `the challenge is for ${fields.domain}, not ${expect.domain}`);
  }
  if (fields.address !== account.address) {
    throw invalid(
      'CHALLENGE_WRONG_ADDRESS',
      `the challenge is for ${fields.address}, not this wallet's LTC address`,
    );
  }
  if (fields.expiresAt <= expect.now()) throw invalid('CHALLENGE_EXPIRED', 'the challenge has expired');
  const message = p.message;
  return {
    message,
    prompt: {
      title: `Sign in to ${fields.domain}`,
      details: [
        { label: 'Requested by', value: origin },
        { label: 'Address', value: account.address },
        { label: 'Message', value: message },
      ],
    },
  };
}

/** Checks an `id_connect` (the identity origin only, a nonce of 8 to 128 letters and digits); the text to sign. */
export function pairingRequest(
  origin: string,
  p: Params,
  identityOrigin: string,
  wallet: DevWallet,
): { account: Account; text: string; prompt: PromptText } {
  if (origin !== identityOrigin) {
    throw err(
      ERROR_CODES.unauthorized,
      'UNTRUSTED_ORIGIN',
      'id_connect is only available to the name-resolution site',
      {
        origin,
      },
    );
  }
  if (typeof p.nonce !== 'string' || !/^[A-Za-z0-9]{8,128}$/.test(p.nonce)) {
    throw invalid('INVALID_PARAMS', 'id_connect needs { nonce } (8 to 128 letters and digits)');
  }
  const account = ltcAccount(wallet);
  const text = identityPairingText({ origin, address: account.address, nonce: p.nonce });
  return {
    account,
    text,
    prompt: {
      title: `Pair your identity with ${origin}`,
      details: [
        { label: 'Address', value: account.address },
        { label: 'Message', value: text },
      ],
    },
  };
}
