/**
 * Which provider methods work for which chain (docs/provider.md §4): the capability map `wallet_connect` returns,
 * and the rule behind 4200 `UNSUPPORTED_FOR_CHAIN`.
 */
import type { Method } from '../provider/protocol.ts';

/** Per-chain methods; a chain not listed supports none (it still gets an account). */
export const CHAIN_METHODS: Readonly<Record<string, readonly Method[]>> = Object.freeze({
  LTC: Object.freeze(['id_signMessage', 'id_connect'] as const),
  LKY: Object.freeze(['wallet_getBalance', 'wallet_sendTransaction'] as const),
  SOL: Object.freeze(['wallet_signMessage', 'wallet_signTransaction'] as const),
});

export type Capabilities = Record<string, { methods: string[] }>;

export function chainSupports(ticker: string, method: Method): boolean {
  return CHAIN_METHODS[ticker]?.includes(method) ?? false;
}

/**
 * The capability map for the chains a dapp connected to that the user holds: one key per such ticker (chains the
 * user does not hold are omitted, as EIP-5792 omits unsupported chains). `id_connect` is listed only for the
 * identity origin, the only one allowed to call it.
 */
export function capabilitiesFor(held: readonly string[], o: { identityOrigin: boolean }): Capabilities {
  const out: Capabilities = {};
  for (const t of held) {
    const methods = (CHAIN_METHODS[t] ?? []).filter((m) => m !== 'id_connect' || o.identityOrigin);
    out[t] = { methods: [...methods] };
  }
  return out;
}
