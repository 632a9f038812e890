/** Who the accounts service knows, and who acted on something. */

export type Role = 'user' | 'admin';

/** A wallet account: identified by the LTC address it signed in with. */
export interface Account {
  /** uuid. */
  id: string;
  /** The LTC address (as signed in; bech32 lowercased). */
  address: string;
  role: Role;
  /** UNIX ms. */
  createdAt: number;
}

/** Who performed a change: a signed-in account, or the operator (ADMIN_TOKEN / CLI). */
export type Actor = { kind: 'account'; account: Account } | { kind: 'operator' };

/** Stable text for the audit log: `account:<id>` or `operator`. */
export function actorLabel(a: Actor): string {
  return a.kind === 'operator' ? 'operator' : `account:${a.account.id}`;
}
