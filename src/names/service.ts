import type { Account } from '../accounts/types.ts';
import type { Network } from '../crypto/chains.ts';
import { ApiError } from '../core/errors.ts';
import { isLowercaseUuid } from '../core/ids.ts';
import type { Db, Queryable } from '../store/db.ts';
import { nameErrors } from './errors.ts';
import * as repo from './name-repo.ts';
import type { NameRow } from './name-repo.ts';
import { checkSuffix, DEFAULT_NAME_SUFFIX, parseAsset, parseName } from './name-rules.ts';
import type { ParsedName } from './name-rules.ts';
import { recipientAddress, recipientByAddress, recipientById } from './recipient.ts';
import { assertProvable } from './proof.ts';
import { holderLabel } from './types.ts';
import { auditName, heldName, issueProofChallenge, validAddress, verifiedChallenge } from './holding.ts';
import { PrimaryNames } from './primary.ts';
import { deletePrimaries } from './primary-repo.ts';
import type {
  Holder,
  NameView,
  ProofChallenge,
  Resolution,
  ResolutionOutcome,
  TransferTarget,
} from './types.ts';

export interface NameServiceOptions {
  /** The suffix of every name (`NAME_SUFFIX`); default `coin`. */
  suffix?: string;
  /** The network addresses are validated for. */
  network: Network;
  /** Clock in ms; default `Date.now`. */
  now?: (() => number) | undefined;
  /** How long a proof-of-control challenge may be signed; default 5 minutes. */
  challengeTtlMs?: number;
}

export const PROOF_CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * The name service: registration (first come), per-coin links (with proof of control for accounts, custodial for
 * partners), privacy, transfer and public resolution. Used by the REST API (src/rest/names) and the identity
 * subgraph. Every change is audited in its own transaction; input is the raw request text (names, tickers and
 * addresses are normalised and validated here).
 *
 * Existence: a private name answers like a missing one (404 NAME_NOT_FOUND) to everyone but its holder, on resolution
 * and on every change endpoint; a public name held by someone else answers 403 NAME_NOT_YOURS. Registering a taken
 * name answers 409 NAME_TAKEN even when it is private: first come, first served cannot be kept otherwise.
 */
export class NameService {
  readonly suffix: string;
  /** Primary names (reverse resolution), by the same rules of holding, proof and privacy. */
  readonly primary: PrimaryNames;
  private readonly now: () => number;
  private readonly ttl: number;

  constructor(
    private readonly db: Db,
    private readonly opts: NameServiceOptions,
  ) {
    this.suffix = checkSuffix(opts.suffix ?? DEFAULT_NAME_SUFFIX);
    this.now = opts.now ?? Date.now;
    this.ttl = opts.challengeTtlMs ?? PROOF_CHALLENGE_TTL_MS;
    this.primary = new PrimaryNames(db, {
      suffix: this.suffix,
      network: opts.network,
      now: this.now,
      challengeTtlMs: this.ttl,
    });
  }

  /** The address of `name` for `asset`; 404 NAME_NOT_FOUND (missing or private) or ADDRESS_NOT_LINKED. */
  async resolve(nameInput: string, assetInput: string | undefined): Promise<Resolution> {
    const o = await this.resolution(nameInput, assetInput);
    if (o.kind === 'miss') throw o.error;
    return o.resolution;
  }

  /**
   * The address of `name` for `asset`, or why there is none as data (the error {@link resolve} throws). Malformed
   * input still throws (INVALID_NAME, INVALID_PARAMETER / MISSING_PARAMETER for the asset).
   */
  async resolution(nameInput: string, assetInput: string | undefined): Promise<ResolutionOutcome> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    return outcomeOf(n, asset, await repo.selectResolution(this.db, n.label, asset));
  }

  /**
   * Many resolutions at once (`POST /api/resolve`, the graph's `resolveNames`), in the order asked: each the outcome
   * {@link resolution} gives, or `invalid` with the 400 a malformed name or asset gets. One read for all the
   * well-formed pairs the read cache does not hold.
   */
  async resolutions(items: readonly { name: string; asset: string }[]): Promise<BulkOutcome[]> {
    const parsed = items.map((it): { n: ParsedName; asset: string } | BulkOutcome => {
      try {
        return { n: this.parse(it.name), asset: parseAsset(it.asset) };
      } catch (err) {
        if (err instanceof ApiError) return { kind: 'invalid', error: err, name: it.name, asset: it.asset };
        throw err;
      }
    });
    const valid = parsed.filter((p): p is { n: ParsedName; asset: string } => 'n' in p);
    const rows = await repo.selectResolutions(
      this.db,
      valid.map((p) => ({ label: p.n.label, asset: p.asset })),
    );
    let i = 0;
    return parsed.map((p) => ('n' in p ? outcomeOf(p.n, p.asset, rows[i++] ?? null) : p));
  }

  /** Every linked address of a public name; null when it is missing or private (for the identity subgraph). */
  async lookup(nameInput: string): Promise<{ name: string; addresses: NameView['addresses'] } | null> {
    const n = this.parse(nameInput);
    const row = await repo.selectName(this.db, n.label);
    if (!row || row.private) return null;
    const addrs = await repo.selectAddresses(this.db, [n.label]);
    return { name: n.name, addresses: addrs.get(n.label) ?? {} };
  }

  /** Registers a free name for `holder` (a partner gives its user reference); 409 NAME_TAKEN. */
  async register(holder: Holder, nameInput: string, ownerRef?: string): Promise<NameView> {
    const n = this.parse(nameInput);
    const at = this.now();
    const row: NameRow = {
      label: n.label,
      ownerAccountId: holder.kind === 'account' ? holder.account.id : null,
      partnerId: holder.kind === 'partner' ? holder.partnerId : null,
      partnerOwnerRef: holder.kind === 'partner' ? (ownerRef ?? '') : null,
      private: false,
      createdAt: at,
      updatedAt: at,
    };
    await this.db.transaction(async (tx) => {
      if (!(await repo.insertName(tx, row))) throw nameErrors.nameTaken(n.name);
      await this.audit(tx, holder, 'name.register', n.label, null, holderLabel(holder), ownerRef ?? null, at);
    });
    return this.view(this.db, row, {});
  }

  /** The names an account holds, by name. */
  async listOwn(account: Account): Promise<NameView[]> {
    const rows = await repo.selectNamesOfAccount(this.db, account.id);
    const addrs = await repo.selectAddresses(
      this.db,
      rows.map((r) => r.label),
    );
    return rows.map((r) => this.toView(r, addrs.get(r.label) ?? {}));
  }

  /**
   * The names of many accounts, by name, with their addresses, per account as asked (an empty list for an id that is
   * no account): two reads for the whole batch, the names of every account then the addresses of every one of those
   * names. What {@link listOwn} gives each account.
   */
  async namesOfAccounts(accountIds: readonly string[]): Promise<NameView[][]> {
    const rows = await repo.selectNamesOfAccounts(this.db, accountIds.filter(isLowercaseUuid));
    const labels = [...rows.values()].flatMap((names) => names.map((r) => r.label));
    const addrs = await repo.selectAddresses(this.db, labels);
    return accountIds.map((id) => (rows.get(id) ?? []).map((r) => this.toView(r, addrs.get(r.label) ?? {})));
  }

  /** Makes the name private (resolves for nobody) or public. Setting the current value changes and audits nothing. */
  async setPrivate(holder: Holder, nameInput: string, priv: boolean): Promise<NameView> {
    const n = this.parse(nameInput);
    const at = this.now();
    return this.db.transaction(async (tx) => {
      const row = await this.held(tx, holder, n, true);
      if (row.private === priv) return this.view(tx, row);
      await repo.updatePrivacy(tx, n.label, priv, at);
      const state = (p: boolean) => (p ? 'private' : 'public');
      await this.audit(tx, holder, 'name.privacy', n.label, state(row.private), state(priv), null, at);
      return this.view(tx, { ...row, private: priv, updatedAt: at });
    });
  }

  /** A single-use challenge proving control of `address` (validated for `asset`), for a later {@link linkProved}. */
  async challenge(
    account: Account,
    nameInput: string,
    assetInput: string,
    addressInput: string,
  ): Promise<ProofChallenge> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    await this.held(this.db, { kind: 'account', account }, n, false);
    const address = this.validAddress(asset, addressInput);
    assertProvable(asset, address, this.opts.network);
    return issueProofChallenge(this.db, 'link', {
      account,
      n,
      asset,
      address,
      issuedAt: this.now(),
      ttlMs: this.ttl,
    });
  }

  /** Links `address` for `asset` after checking the signature of the challenge `nonce` names (proof of control). */
  async linkProved(
    account: Account,
    nameInput: string,
    assetInput: string,
    b: { address: string; signature?: string | undefined; nonce?: string | undefined },
  ): Promise<NameView> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    const holder: Holder = { kind: 'account', account };
    await this.held(this.db, holder, n, false);
    const address = this.validAddress(asset, b.address);
    if (!b.signature || !b.nonce) throw nameErrors.proofRequired(asset);
    const at = this.now();
    const nonce = await verifiedChallenge(
      this.db,
      'link',
      { account, n, asset, address, at, network: this.opts.network },
      { nonce: b.nonce, signature: b.signature },
    );
    return this.link(holder, n, asset, address, at, nonce);
  }

  /** Links `address` for `asset` without proof: partners custody their users' addresses. */
  async linkCustodial(
    partnerId: string,
    nameInput: string,
    assetInput: string,
    addressInput: string,
  ): Promise<NameView> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    const holder: Holder = { kind: 'partner', partnerId };
    await this.held(this.db, holder, n, false);
    return this.link(holder, n, asset, this.validAddress(asset, addressInput), this.now(), null);
  }

  /** Unlinks the address of `asset`; 404 ADDRESS_NOT_LINKED when there is none. */
  async unlink(holder: Holder, nameInput: string, assetInput: string): Promise<NameView> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    const at = this.now();
    return this.db.transaction(async (tx) => {
      const row = await this.held(tx, holder, n, true);
      const old = await repo.deleteAddress(tx, n.label, asset);
      if (old === null) throw nameErrors.addressNotLinked(n.name, asset);
      await deletePrimaries(tx, n.label, asset); // no longer forward-verifiable
      await this.audit(tx, holder, 'name.unlink', n.label, `${asset}:${old}`, null, null, at);
      return this.view(tx, row);
    });
  }

  /**
   * Gives an account-held name to another wallet account (by LTC address, created if new, or by account id). The
   * links are cleared (they were proven by the giver, and funds must not reach the giver by the recipient's name);
   * privacy is kept.
   */
  async transfer(account: Account, nameInput: string, target: TransferTarget): Promise<NameView> {
    const n = this.parse(nameInput);
    const holder: Holder = { kind: 'account', account };
    await this.held(this.db, holder, n, false);
    const toAddress = 'toAddress' in target ? recipientAddress(target.toAddress) : null;
    const at = this.now();
    return this.db.transaction(async (tx) => {
      const row = await this.held(tx, holder, n, true);
      const to =
        toAddress !== null ? await recipientByAddress(tx, toAddress, at) : await recipientById(tx, target);
      if (to.id === account.id) throw nameErrors.transferToSelf();
      await repo.updateAccountHolder(tx, n.label, to.id, at);
      const cleared = await repo.deleteAllAddresses(tx, n.label);
      await deletePrimaries(tx, n.label); // the giver's addresses do not carry over to the recipient
      const reason = cleared > 0 ? `${cleared} linked address(es) cleared` : null;
      await this.audit(
        tx,
        holder,
        'name.transfer',
        n.label,
        holderLabel(holder),
        `account:${to.id}`,
        reason,
        at,
      );
      return this.toView({ ...row, ownerAccountId: to.id, updatedAt: at }, {});
    });
  }

  private parse(input: string): ParsedName {
    return parseName(input, this.suffix);
  }

  private held(q: Queryable, holder: Holder, n: ParsedName, forUpdate: boolean): Promise<NameRow> {
    return heldName(q, holder, n, forUpdate);
  }

  private async link(
    holder: Holder,
    n: ParsedName,
    asset: string,
    address: string,
    at: number,
    nonce: string | null,
  ): Promise<NameView> {
    return this.db.transaction(async (tx) => {
      const row = await this.held(tx, holder, n, true);
      if (nonce !== null && !(await repo.consumeChallenge(tx, nonce, at))) throw nameErrors.challengeUsed();
      const old = await repo.upsertAddress(tx, n.label, asset, address, at);
      if (old !== null && old !== address) await deletePrimaries(tx, n.label, asset, address);
      const reason = nonce !== null ? `proof of control, challenge ${nonce}` : 'custodial (partner)';
      await this.audit(
        tx,
        holder,
        'name.link',
        n.label,
        old && `${asset}:${old}`,
        `${asset}:${address}`,
        reason,
        at,
      );
      return this.view(tx, row);
    });
  }

  private validAddress(asset: string, input: string): string {
    return validAddress(asset, input, this.opts.network);
  }

  private async view(q: Queryable, row: NameRow, addrs?: NameView['addresses']): Promise<NameView> {
    return this.toView(row, addrs ?? (await repo.selectAddresses(q, [row.label])).get(row.label) ?? {});
  }

  private toView(row: NameRow, addresses: NameView['addresses']): NameView {
    return {
      name: `${row.label}.${this.suffix}`,
      private: row.private,
      holder:
        row.partnerId !== null
          ? { type: 'partner', partnerId: row.partnerId, ownerRef: row.partnerOwnerRef ?? '' }
          : { type: 'account', accountId: row.ownerAccountId ?? '' },
      addresses,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  private audit(
    tx: Queryable,
    holder: Holder,
    action: string,
    label: string,
    from: string | null,
    to: string | null,
    reason: string | null,
    at: number,
  ): Promise<void> {
    return auditName(tx, holder, { action, label, from, to, reason }, at);
  }
}

/** A resolution outcome from the row of (name, asset): private answers exactly as missing. */
function outcomeOf(n: ParsedName, asset: string, r: repo.ResolutionRow): ResolutionOutcome {
  const miss = (error: ApiError) => ({ kind: 'miss' as const, error, name: n.name, asset });
  // Private answers as missing: the same error from the name alone, so nothing tells the two apart.
  if (!r || r.private) return miss(nameErrors.nameNotFound(n.name));
  if (!r.link) return miss(nameErrors.addressNotLinked(n.name, asset));
  return {
    kind: 'found',
    resolution: { name: n.name, asset, address: r.link.address, updatedAt: r.link.updatedAt },
  };
}

/** One item of a bulk resolution: a {@link ResolutionOutcome}, or why the item is malformed (as sent). */
export type BulkOutcome =
  ResolutionOutcome | { kind: 'invalid'; error: ApiError; name: string; asset: string };
