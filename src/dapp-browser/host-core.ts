/**
 * The emulator's wallet logic (Node side): answers provider requests for a dapp origin, asks for approval through
 * prompts, signs with the development wallet, checks listings and bridge deposits against the platform. The host
 * page only relays: it shows the prompts and passes the user's decision back, and never sees a key.
 *
 * Rules (docs/provider.md §4–§5): `wallet_connect` is refused for unlisted origins (4100 `DAPP_NOT_LISTED`, unless
 * `allowUnlisted`) and prompts once per origin per session; every signing and sending method prompts each time;
 * every method but `wallet_connect` and `id_connect` needs a connected origin.
 */
import { randomUUID } from 'node:crypto';
import type { HostEvent, Method, Params, RpcErrorBody } from '../provider/protocol.ts';
import { ERROR_CODES, METHODS, rpcError } from '../provider/protocol.ts';
import { capabilitiesFor } from './capabilities.ts';
import type { DevWallet } from './dev-wallet.ts';
import { depositFee, depositParams, depositPrompt, depositTxid, checkFunds } from './host-deposit.ts';
import { err, fromPlatform, invalid, toBody } from './host-errors.ts';
import { ltcAccount, pairingRequest, signInChallenge } from './host-identity.ts';
import type { PromptText } from './host-session.ts';
import { askedTickers, chainAccount, connectPrompt, isOrigin, requireConnected } from './host-session.ts';
import { messageToSign, transactionToSign } from './host-solana.ts';
import type { Platform } from './platform.ts';

export { MAX_SIGN_MESSAGE_BYTES } from './host-solana.ts';

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
    text: PromptText,
    run: () => Promise<Settled> | Settled,
  ): HostAnswer {
    const view: PromptView = { id: randomUUID(), origin, method, title: text.title, details: text.details };
    this.#prompts.set(view.id, { view, run });
    return { prompt: view };
  }

  #requireConnected(origin: string): Set<string> {
    return requireConnected(this.#sessions.get(origin));
  }

  /** The account for `ticker` of a connected origin, after the chain checks (docs/provider.md §5 order). */
  #chain(origin: string, method: Method, ticker: unknown) {
    return chainAccount(this.#requireConnected(origin), this.#o.wallet, method, ticker);
  }

  // ---- wallet_connect ---------------------------------------------------------------------------------------

  async #connect(origin: string, p: Params): Promise<HostAnswer> {
    const asked = askedTickers(p);
    if (!this.#o.allowUnlisted) {
      const access = await fromPlatform(() => this.#o.platform.access(origin));
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
    return this.#prompt(origin, 'wallet_connect', connectPrompt(origin, asked, this.#o.wallet), () => {
      this.#sessions.set(origin, new Set(asked));
      return { result: this.#connectResult(origin, asked) };
    });
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

  // ---- LKY ---------------------------------------------------------------------------------------------------

  #getBalance(origin: string, p: Params): HostAnswer {
    this.#chain(origin, 'wallet_getBalance', p.ticker);
    const b = this.#lkyBalance.toString();
    return { result: { ticker: 'LKY', confirmed: b, unconfirmed: '0', total: b } };
  }

  async #sendTransaction(origin: string, p: Params): Promise<HostAnswer> {
    const account = this.#chain(origin, 'wallet_sendTransaction', p.ticker);
    const { to, amount } = depositParams(p);
    const config = await fromPlatform(() => this.#o.platform.bridgeConfig());
    const fee = depositFee(config, to, amount, this.#lkyBalance);
    return this.#prompt(
      origin,
      'wallet_sendTransaction',
      depositPrompt(account, config, { to, amount, fee }),
      () => {
        checkFunds(amount, this.#lkyBalance);
        this.#lkyBalance -= amount;
        return { result: { txid: depositTxid(++this.#deposits, to, amount, this.#now()) } };
      },
    );
  }

  // ---- SOL ---------------------------------------------------------------------------------------------------

  #signMessage(origin: string, p: Params): HostAnswer {
    const account = this.#chain(origin, 'wallet_signMessage', p.ticker);
    const { bytes, prompt } = messageToSign(p, account);
    return this.#prompt(origin, 'wallet_signMessage', prompt, () => ({
      result: { publicKey: account.publicKey, signature: this.#o.wallet.signSolana(bytes) },
    }));
  }

  #signTransaction(origin: string, p: Params): HostAnswer {
    const account = this.#chain(origin, 'wallet_signTransaction', p.ticker);
    const { bytes, prompt } = transactionToSign(p, account);
    return this.#prompt(origin, 'wallet_signTransaction', prompt, () => ({
      result: { publicKey: account.publicKey, signature: this.#o.wallet.signSolana(bytes) },
    }));
  }

  // ---- identity ----------------------------------------------------------------------------------------------

  #idSignMessage(origin: string, p: Params): HostAnswer {
    const connected = this.#requireConnected(origin);
    const account = ltcAccount(this.#o.wallet);
    const { message, prompt } = signInChallenge(origin, p, connected, account, {
      domain: this.#o.platform.domain,
      now: this.#now,
    });
    return this.#prompt(origin, 'id_signMessage', prompt, () => ({
      result: { address: account.address, signature: this.#o.wallet.signMessage('LTC', message) },
    }));
  }

  #idConnect(origin: string, p: Params): HostAnswer {
    const { account, text, prompt } = pairingRequest(origin, p, this.#o.identityOrigin, this.#o.wallet);
    return this.#prompt(origin, 'id_connect', prompt, () => ({
      result: {
        address: account.address,
        publicKey: account.publicKey,
        signature: this.#o.wallet.signMessage('LTC', text),
      },
    }));
  }
}
