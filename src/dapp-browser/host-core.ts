/**
 * The emulator's wallet logic (Node side): answers provider requests for a dapp origin, asks for approval through
 * prompts, signs with the development wallet, checks listings and bridge deposits against the platform. The host
 * page only relays: it shows the prompts and passes the user's decision back, and never sees a key.
 *
 * Rules (docs/provider.md §4–§5): `wallet_connect` is refused for unlisted origins (4100 `DAPP_NOT_LISTED`, unless
 * `allowUnlisted`) and prompts once per origin per session; every signing and sending method prompts each time;
 * every method but `wallet_connect` and `id_connect` needs a connected origin.
 */
import { createHash, randomUUID } from 'node:crypto';
import { base64 } from '@scure/base';
import { challengeText, parseChallenge } from '../accounts/challenge.ts';
import { KIT_TICKERS_AND_SOL } from '../crypto/chains.ts';
import type { ErrorReason, HostEvent, Method, Params, RpcErrorBody } from '../provider/protocol.ts';
import { ERROR_CODES, METHODS, identityPairingText, rpcError } from '../provider/protocol.ts';
import { capabilitiesFor, chainSupports } from './capabilities.ts';
import type { Account, DevWallet } from './dev-wallet.ts';
import type { Platform } from './platform.ts';
import { PlatformError, lkyDepositLane } from './platform.ts';
import { parseSolanaMessage } from './solana-message.ts';
import { formatUnits } from './units.ts';

export interface HostOptions {
  wallet: DevWallet;
  platform: Platform;
  /** Skip the dapp-store check (local work on a dapp that is not listed yet). */
  allowUnlisted: boolean;
  /** The only origin allowed to call `id_connect`. */
  identityOrigin: string;
  /** Starting LKY balance in base units; bridge deposits decrease it. */
  lkyBalance: bigint;
  now?: () => number;
}

export interface PromptView {
  id: string;
  origin: string;
  method: Method;
  title: string;
  details: { label: string; value: string }[];
}

export interface EventOut {
  event: HostEvent;
  data: unknown;
}

export type Settled = { result: unknown; events?: EventOut[] } | { error: RpcErrorBody };
export type HostAnswer = Settled | { prompt: PromptView };

/** LKY has 8 decimals. */
const LKY_DECIMALS = 8;
/** Longest message `wallet_signMessage` signs (UTF-8 bytes). */
export const MAX_SIGN_MESSAGE_BYTES = 16_384;

class HostError extends Error {
  constructor(readonly body: RpcErrorBody) {
    super(body.message);
  }
}

const err = (
  code: (typeof ERROR_CODES)[keyof typeof ERROR_CODES],
  reason: ErrorReason,
  message: string,
  extra = {},
) => new HostError(rpcError(code, reason, message, extra));
const invalid = (reason: ErrorReason, message: string, extra = {}) =>
  err(ERROR_CODES.invalidParams, reason, message, extra);

export class HostCore {
  readonly #o: HostOptions;
  readonly #now: () => number;
  /** Connected origins and the tickers they asked for. */
  readonly #sessions = new Map<string, Set<string>>();
  readonly #prompts = new Map<string, { view: PromptView; run: () => Promise<Settled> | Settled }>();
  #lkyBalance: bigint;
  #deposits = 0;

  constructor(o: HostOptions) {
    this.#o = o;
    this.#now = o.now ?? Date.now;
    this.#lkyBalance = o.lkyBalance;
  }

  get lkyBalance(): bigint {
    return this.#lkyBalance;
  }

  /** What the host page shows about the wallet (public data only). */
  state() {
    return {
      accounts: this.#o.wallet.accounts(),
      lkyBalance: this.#o.wallet.has('LKY') ? this.#lkyBalance.toString() : null,
      allowUnlisted: this.#o.allowUnlisted,
      identityOrigin: this.#o.identityOrigin,
      platform: this.#o.platform.origin,
      connected: [...this.#sessions].map(([origin, t]) => ({ origin, tickers: [...t] })),
    };
  }

  isConnected(origin: string): boolean {
    return this.#sessions.has(origin);
  }

  /** One provider request from `origin` (the host page reports `event.origin`, never what the dapp says). */
  async request(origin: string, method: string, params: Params | undefined): Promise<HostAnswer> {
    try {
      if (!isOrigin(origin)) throw invalid('INVALID_PARAMS', `not a web origin: ${origin}`);
      const p = params ?? {};
      switch (method as Method) {
        case 'wallet_connect':
          return await this.#connect(origin, p);
        case 'id_connect':
          return this.#idConnect(origin, p);
        case 'wallet_getBalance':
          return this.#getBalance(origin, p);
        case 'wallet_signMessage':
          return this.#signMessage(origin, p);
        case 'wallet_signTransaction':
          return this.#signTransaction(origin, p);
        case 'wallet_sendTransaction':
          return await this.#sendTransaction(origin, p);
        case 'id_signMessage':
          return this.#idSignMessage(origin, p);
        default:
          throw err(
            ERROR_CODES.unsupportedMethod,
            'UNSUPPORTED_METHOD',
            `${method} is not supported (methods: ${METHODS.join(', ')})`,
          );
      }
    } catch (e) {
      return { error: toBody(e) };
    }
  }

  /** The user's decision on a prompt: approve runs the action, reject answers 4001. */
  async decide(promptId: string, approve: boolean): Promise<Settled> {
    const p = this.#prompts.get(promptId);
    if (!p) return { error: rpcError(ERROR_CODES.invalidParams, 'INVALID_PARAMS', 'no such prompt') };
    this.#prompts.delete(promptId);
    if (!approve)
      return { error: rpcError(ERROR_CODES.userRejected, 'USER_REJECTED', 'the user rejected the request') };
    try {
      return await p.run();
    } catch (e) {
      return { error: toBody(e) };
    }
  }

  /** The user disconnects a site: it must connect (and be approved) again. */
  revoke(origin: string): EventOut[] {
    if (!this.#sessions.delete(origin)) return [];
    return [
      { event: 'accountsChanged', data: [] },
      {
        event: 'disconnect',
        data: rpcError(ERROR_CODES.disconnected, 'HOST_DISCONNECTED', 'the user disconnected this site'),
      },
    ];
  }

  #prompt(
    origin: string,
    method: Method,
    title: string,
    details: PromptView['details'],
    run: () => Promise<Settled> | Settled,
  ): HostAnswer {
    const view: PromptView = { id: randomUUID(), origin, method, title, details };
    this.#prompts.set(view.id, { view, run });
    return { prompt: view };
  }

  // ---- wallet_connect ---------------------------------------------------------------------------------------

  async #connect(origin: string, p: Params): Promise<HostAnswer> {
    const tickers = p.tickers;
    // Duplicates are ignored, so allow some; a longer list is not a mistake a dapp makes by accident.
    const max = KIT_TICKERS_AND_SOL.length * 2;
    if (!Array.isArray(tickers) || tickers.length === 0 || tickers.length > max) {
      throw invalid('INVALID_PARAMS', `wallet_connect needs { tickers: string[] } (1 to ${max} entries)`);
    }
    const asked: string[] = [];
    for (const t of tickers) {
      if (typeof t !== 'string' || !KIT_TICKERS_AND_SOL.includes(t)) {
        throw invalid(
          'UNKNOWN_TICKER',
          `unknown ticker ${JSON.stringify(t)}: use ${KIT_TICKERS_AND_SOL.join(', ')}`,
          { ticker: t },
        );
      }
      if (!asked.includes(t)) asked.push(t);
    }
    if (!this.#o.allowUnlisted) {
      const access = await this.#platform(() => this.#o.platform.access(origin));
      if (!access.allowed) {
        throw err(
          ERROR_CODES.unauthorized,
          'DAPP_NOT_LISTED',
          `${origin} is not an approved dapp in the dapp store: it gets no wallet API`,
          { origin },
        );
      }
    }
    const known = this.#sessions.get(origin);
    if (known) {
      const before = this.#o.wallet.accounts([...known]);
      for (const t of asked) known.add(t);
      const after = this.#o.wallet.accounts([...known]);
      const answer = { result: this.#connectResult(origin, asked) } as Settled & { events?: EventOut[] };
      if (after.length !== before.length) answer.events = [{ event: 'accountsChanged', data: after }];
      return answer;
    }
    const shared = this.#o.wallet.accounts(asked);
    const missing = asked.filter((t) => !this.#o.wallet.has(t));
    return this.#prompt(
      origin,
      'wallet_connect',
      `Connect ${origin}?`,
      [
        { label: 'Site', value: origin },
        { label: 'Asks for', value: asked.join(', ') },
        {
          label: 'Shares',
          value: shared.length ? shared.map((a) => `${a.ticker} ${a.address}`).join('\n') : 'no accounts',
        },
        ...(missing.length ? [{ label: 'No wallet for', value: missing.join(', ') }] : []),
      ],
      () => {
        this.#sessions.set(origin, new Set(asked));
        return { result: this.#connectResult(origin, asked) };
      },
    );
  }

  #connectResult(origin: string, asked: readonly string[]) {
    const accounts = this.#o.wallet.accounts(asked);
    return {
      accounts,
      capabilities: capabilitiesFor(
        accounts.map((a) => a.ticker),
        { identityOrigin: origin === this.#o.identityOrigin },
      ),
    };
  }

  // ---- checks shared by the chain methods --------------------------------------------------------------------

  #requireConnected(origin: string): Set<string> {
    const s = this.#sessions.get(origin);
    if (!s) throw err(ERROR_CODES.unauthorized, 'NOT_CONNECTED', 'call wallet_connect first');
    return s;
  }

  /** The account for `ticker` of a connected origin, after the chain checks (docs/provider.md §5 order). */
  #chain(origin: string, method: Method, ticker: unknown): Account {
    const connected = this.#requireConnected(origin);
    if (typeof ticker !== 'string') throw invalid('INVALID_PARAMS', `${method} needs { ticker }`);
    if (!KIT_TICKERS_AND_SOL.includes(ticker)) {
      throw invalid('UNKNOWN_TICKER', `unknown ticker ${JSON.stringify(ticker)}`, { ticker });
    }
    if (!chainSupports(ticker, method)) {
      throw err(
        ERROR_CODES.unsupportedMethod,
        'UNSUPPORTED_FOR_CHAIN',
        `${method} is not supported for ${ticker}`,
        {
          ticker,
        },
      );
    }
    const account = this.#o.wallet.account(ticker);
    if (!account) {
      throw err(ERROR_CODES.unsupportedMethod, 'NO_WALLET_FOR_CHAIN', `the user has no ${ticker} wallet`, {
        ticker,
      });
    }
    if (!connected.has(ticker)) {
      throw err(
        ERROR_CODES.chainDisconnected,
        'CHAIN_NOT_CONNECTED',
        `${ticker} was not part of wallet_connect: connect it first`,
        { ticker },
      );
    }
    return account;
  }

  async #platform<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      if (e instanceof PlatformError) throw err(ERROR_CODES.internal, 'PLATFORM_UNAVAILABLE', e.message);
      throw e;
    }
  }

  // ---- LKY ---------------------------------------------------------------------------------------------------

  #getBalance(origin: string, p: Params): HostAnswer {
    this.#chain(origin, 'wallet_getBalance', p.ticker);
    const b = this.#lkyBalance.toString();
    return { result: { ticker: 'LKY', confirmed: b, unconfirmed: '0', total: b } };
  }

  async #sendTransaction(origin: string, p: Params): Promise<HostAnswer> {
    const account = this.#chain(origin, 'wallet_sendTransaction', p.ticker);
    if (p.kind !== 'bridge-deposit') {
      throw invalid(
        'NOT_A_BRIDGE_DEPOSIT',
        'wallet_sendTransaction only makes LKY bridge deposits (kind: "bridge-deposit")',
      );
    }
    if (typeof p.to !== 'string' || typeof p.amount !== 'string' || !/^[1-9]\d{0,29}$/.test(p.amount)) {
      throw invalid(
        'INVALID_PARAMS',
        'a bridge deposit needs { to, amount } (amount: base units as a decimal string)',
      );
    }
    const to = p.to;
    const amount = BigInt(p.amount);
    const config = await this.#platform(() => this.#o.platform.bridgeConfig());
    const lane = lkyDepositLane(config);
    if (!lane?.depositAddress) {
      throw err(
        ERROR_CODES.unsupportedMethod,
        'UNSUPPORTED_FOR_CHAIN',
        'the active bridge deployment takes no LKY deposits',
      );
    }
    if (lane.status !== 'active') {
      throw invalid('LANE_PAUSED', `LKY deposits are paused: ${lane.pausedReason ?? 'no reason given'}`, {
        pausedReason: lane.pausedReason,
      });
    }
    if (to !== lane.depositAddress) {
      throw invalid(
        'NOT_A_BRIDGE_DEPOSIT',
        `${to} is not the LKY deposit address of the active bridge deployment`,
        {
          depositAddress: lane.depositAddress,
        },
      );
    }
    const min = BigInt(lane.minAmount);
    const max = BigInt(lane.maxAmount);
    if (amount < min || amount > max) {
      throw invalid(
        'AMOUNT_OUT_OF_LIMITS',
        `the amount must be from ${lane.minAmount} to ${lane.maxAmount} base units`,
        {
          minAmount: lane.minAmount,
          maxAmount: lane.maxAmount,
        },
      );
    }
    if (amount > this.#lkyBalance) {
      throw invalid('INSUFFICIENT_FUNDS', 'the LKY balance does not cover the amount', {
        balance: this.#lkyBalance.toString(),
      });
    }
    const fee =
      BigInt(lane.fees.fixed) + (amount * BigInt(Math.round(lane.fees.percent * 1e6))) / 100_000_000n;
    return this.#prompt(
      origin,
      'wallet_sendTransaction',
      'Bridge deposit: LKY → wLKY',
      [
        { label: 'Send', value: `${formatUnits(amount, LKY_DECIMALS)} LKY from ${account.address}` },
        { label: 'To (bridge deposit address)', value: to },
        { label: 'Deployment', value: `${config.network} ${config.version}` },
        { label: 'Bridge fee', value: `${formatUnits(fee, LKY_DECIMALS)} LKY` },
        {
          label: 'You receive',
          value: `≈ ${formatUnits(amount > fee ? amount - fee : 0n, LKY_DECIMALS)} wLKY`,
        },
      ],
      () => {
        if (amount > this.#lkyBalance) {
          throw invalid('INSUFFICIENT_FUNDS', 'the LKY balance does not cover the amount', {
            balance: this.#lkyBalance.toString(),
          });
        }
        this.#lkyBalance -= amount;
        const txid = createHash('sha256')
          .update(`coinwallet dev deposit\n${++this.#deposits}\n${to}\n${amount}\n${this.#now()}`)
          .digest('hex');
        return { result: { txid } };
      },
    );
  }

  // ---- SOL ---------------------------------------------------------------------------------------------------

  #signMessage(origin: string, p: Params): HostAnswer {
    const account = this.#chain(origin, 'wallet_signMessage', p.ticker);
    if (typeof p.message !== 'string')
      throw invalid('INVALID_PARAMS', 'wallet_signMessage needs { message: string }');
    const bytes = new TextEncoder().encode(p.message);
    if (bytes.length === 0 || bytes.length > MAX_SIGN_MESSAGE_BYTES) {
      throw invalid('INVALID_PARAMS', `the message must be 1 to ${MAX_SIGN_MESSAGE_BYTES} bytes`);
    }
    return this.#prompt(
      origin,
      'wallet_signMessage',
      'Sign a message (Solana)',
      [
        { label: 'Account', value: account.address },
        { label: 'Message', value: p.message },
      ],
      () => ({ result: { publicKey: account.publicKey, signature: this.#o.wallet.signSolana(bytes) } }),
    );
  }

  #signTransaction(origin: string, p: Params): HostAnswer {
    const account = this.#chain(origin, 'wallet_signTransaction', p.ticker);
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
    return this.#prompt(
      origin,
      'wallet_signTransaction',
      'Sign a transaction (Solana)',
      [
        { label: 'Account', value: account.address },
        { label: 'Fee payer', value: info.signers[0] ?? '' },
        { label: 'Message', value: `${info.version === 'legacy' ? 'legacy' : 'v0'}, ${bytes.length} bytes` },
        { label: 'Instructions', value: String(info.instructions) },
      ],
      () => ({ result: { publicKey: account.publicKey, signature: this.#o.wallet.signSolana(bytes) } }),
    );
  }

  // ---- identity ----------------------------------------------------------------------------------------------

  #ltcAccount(): Account {
    const a = this.#o.wallet.account('LTC');
    if (!a)
      throw err(ERROR_CODES.unsupportedMethod, 'NO_WALLET_FOR_CHAIN', 'the user has no LTC wallet', {
        ticker: 'LTC',
      });
    return a;
  }

  #idSignMessage(origin: string, p: Params): HostAnswer {
    const connected = this.#requireConnected(origin);
    const account = this.#ltcAccount();
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
    if (fields.domain !== this.#o.platform.domain) {
      throw invalid(
        'CHALLENGE_WRONG_DOMAIN',
        `the challenge is for ${fields.domain}, not ${this.#o.platform.domain}`,
      );
    }
    if (fields.address !== account.address) {
      throw invalid(
        'CHALLENGE_WRONG_ADDRESS',
        `the challenge is for ${fields.address}, not this wallet's LTC address`,
      );
    }
    if (fields.expiresAt <= this.#now()) throw invalid('CHALLENGE_EXPIRED', 'the challenge has expired');
    const message = p.message;
    return this.#prompt(
      origin,
      'id_signMessage',
      `Sign in to ${fields.domain}`,
      [
        { label: 'Requested by', value: origin },
        { label: 'Address', value: account.address },
        { label: 'Message', value: message },
      ],
      () => ({ result: { address: account.address, signature: this.#o.wallet.signMessage('LTC', message) } }),
    );
  }

  #idConnect(origin: string, p: Params): HostAnswer {
    if (origin !== this.#o.identityOrigin) {
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
    const account = this.#ltcAccount();
    const text = identityPairingText({ origin, address: account.address, nonce: p.nonce });
    return this.#prompt(
      origin,
      'id_connect',
      `Pair your identity with ${origin}`,
      [
        { label: 'Address', value: account.address },
        { label: 'Message', value: text },
      ],
      () => ({
        result: {
          address: account.address,
          publicKey: account.publicKey,
          signature: this.#o.wallet.signMessage('LTC', text),
        },
      }),
    );
  }
}

function isOrigin(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
}

function toBody(e: unknown): RpcErrorBody {
  if (e instanceof HostError) return e.body;
  return rpcError(
    ERROR_CODES.internal,
    'INTERNAL_ERROR',
    `the wallet failed: ${e instanceof Error ? e.message : String(e)}`,
  );
}
