/// <reference lib="dom" />
/**
 * Who the dashboard acts as, and signing in: the operator token (`ADMIN_TOKEN`, pasted once per tab) or an
 * administrator's wallet session (inside Coin Wallet's dapp browser: `wallet_connect` for LTC, the accounts
 * challenge signed with `id_signMessage`, exchanged for a session — docs/accounts.md, docs/provider.md).
 *
 * The credential is kept in sessionStorage under its own key (not the portal's session): it is gone when the tab
 * closes, and it is sent only as `Authorization: Bearer` to this origin's `/graphql`.
 */
import { gql, GraphError } from '../../shared/graph.ts';
import { SIGN_IN_STEPS, signInWithWallet as walletSignIn } from '../../shared/wallet.ts';
import type { SignInStep, WalletProvider } from '../../shared/wallet.ts';
import { AdminPendingKeysDocument, AdminSignOutDocument } from '../../generated/graphql.ts';

export interface Credential {
  kind: 'operator' | 'session';
  token: string;
  /** The wallet address of a session; absent for the operator. */
  address?: string;
}

const KEY = 'coinwallet.admin';

export const credentialStore = {
  get(): Credential | null {
    try {
      const raw = sessionStorage.getItem(KEY);
      if (!raw) return null;
      const c = JSON.parse(raw) as Partial<Credential>;
      if ((c.kind === 'operator' || c.kind === 'session') && typeof c.token === 'string' && c.token !== '')
        return {
          kind: c.kind,
          token: c.token,
          ...(typeof c.address === 'string' ? { address: c.address } : {}),
        };
      return null;
    } catch {
      return null;
    }
  },
  set(c: Credential | null): void {
    try {
      if (c) sessionStorage.setItem(KEY, JSON.stringify(c));
      else sessionStorage.removeItem(KEY);
    } catch {
      // storage unavailable: the sign-in lasts as long as the page
    }
  },
};

/** Codes meaning "this bearer is not (or no longer) signed in": back to the sign-in form. */
export const SIGNED_OUT_CODES: ReadonlySet<string> = new Set([
  'AUTH_REQUIRED',
  'INVALID_SESSION',
  'SESSION_EXPIRED',
  'UNAUTHENTICATED',
]);

export type Access = { ok: true } | { ok: false; forbidden: boolean; message: string };

/**
 * Checks what a credential may do by asking for the key queue: administrators and the operator get it, a signed-in
 * non-administrator FORBIDDEN, a wrong or expired token AUTH_REQUIRED / INVALID_SESSION / SESSION_EXPIRED.
 */
export async function checkAccess(c: Credential): Promise<Access> {
  try {
    await gql(AdminPendingKeysDocument, {}, { token: c.token });
    return { ok: true };
  } catch (e) {
    if (!(e instanceof GraphError)) throw e;
    if (e.code === 'FORBIDDEN') return { ok: false, forbidden: true, message: e.message };
    if (SIGNED_OUT_CODES.has(e.code))
      return {
        ok: false,
        forbidden: false,
        message:
          c.kind === 'operator'
            ? `The server did not accept this token as the operator token (${e.code}). Paste ADMIN_TOKEN exactly as configured.`
            : `The session is no longer valid (${e.code}): sign in again.`,
      };
    return { ok: false, forbidden: false, message: `${e.code}: ${e.message}` };
  }
}

/** Ends a wallet session on the server (the operator token has nothing to end). Never throws. */
export async function signOutOf(c: Credential): Promise<void> {
  if (c.kind !== 'session') return;
  try {
    await gql(AdminSignOutDocument, {}, { token: c.token });
  } catch {
    // already expired or ended: nothing to do
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Wallet sign-in

export type { WalletProvider } from '../../shared/wallet.ts';
export { findProvider } from '../../shared/wallet.ts';

/** What each step of the wallet sign-in asks of the administrator (the shared wording). */
export const WALLET_STEPS = SIGN_IN_STEPS;

/** A wallet error's explanation (the provider rejects with `{ code, message, data.reason }`). */
export function walletError(e: unknown): string {
  if (e instanceof GraphError) return `${e.code}: ${e.message}`;
  const w = e as { code?: unknown; message?: unknown; data?: { reason?: unknown } } | null;
  const reason = typeof w?.data?.reason === 'string' ? w.data.reason : null;
  if (w?.code === 4001 || reason === 'USER_REJECTED') return 'You declined the request in your wallet.';
  if (reason === 'NO_WALLET_FOR_CHAIN') return 'This wallet holds no Litecoin (LTC) account to sign in with.';
  const msg = typeof w?.message === 'string' ? w.message : String(e);
  return reason ? `${reason}: ${msg}` : msg;
}

/** The whole wallet sign-in (src/web/shared/wallet.ts); resolves with a session credential and the account's role. */
export async function signInWithWallet(
  provider: WalletProvider,
  step: (s: SignInStep) => void,
): Promise<{ credential: Credential; role: string }> {
  const signIn = await walletSignIn(provider, step);
  return {
    credential: { kind: 'session', token: signIn.token, address: signIn.account.address },
    role: signIn.account.role,
  };
}
