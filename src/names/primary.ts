/**
 * Primary names: reverse resolution, address → name (docs/names.md, "Primary names"). A name's holder marks it as
 * the primary name of an address for one coin, proving control of the address by the linking rules (a signed
 * challenge, `proof.ts`; partners custodially, as they link); one primary per (coin, address), the latest wins.
 *
 * A reverse record is served only when it is **forward-verified** and **public**: the name still resolves to that
 * address for that coin, and it is not private. Anything else — no record, a private name, a name since relinked,
 * unlinked or transferred — answers the same 404 PRIMARY_NAME_NOT_FOUND, so an address never reveals a private name.
 */
import type { Account } from '../accounts/types.ts';
import type { Network } from '../crypto/chains.ts';
import type { Db } from '../store/db.ts';
import { nameErrors } from './errors.ts';
import { auditName, heldName, issueProofChallenge, validAddress, verifiedChallenge } from './holding.ts';
import * as repo from './name-repo.ts';
import { parseAsset, parseName } from './name-rules.ts';
import type { ParsedName } from './name-rules.ts';
import { deletePrimaries, selectPrimaries, upsertPrimary } from './primary-repo.ts';
import type { PrimaryRow } from './primary-repo.ts';
import { assertProvable } from './proof.ts';
import type { Holder, ProofChallenge } from './types.ts';

/** A served reverse record: `address` (for `asset`) is known as `name`. */
export interface PrimaryName {
  address: string;
  asset: string;
  name: string;
  /** UNIX ms the name was made the address's primary. */
  updatedAt: number;
}

export interface PrimaryNamesOptions {
  suffix: string;
  network: Network;
  now: () => number;
  /** How long a challenge may be signed. */
  challengeTtlMs: number;
}

/** A reverse lookup's (asset, address), normalised as stored. */
export interface ReverseKey {
  asset: string;
  address: string;
}

export class PrimaryNames {
  constructor(
    private readonly db: Db,
    private readonly o: PrimaryNamesOptions,
  ) {}

  /** Validates a lookup: the ticker (`parseAsset`), then the address for that coin; 400s name what was expected. */
  key(addressInput: string, assetInput: string | undefined): ReverseKey {
    const asset = parseAsset(assetInput);
    return { asset, address: validAddress(asset, addressInput, this.o.network) };
  }

  /** The primary name of the address; 404 PRIMARY_NAME_NOT_FOUND unless there is a public, forward-verified one. */
  async reverse(addressInput: string, assetInput: string | undefined): Promise<PrimaryName> {
    const k = this.key(addressInput, assetInput);
    const [found] = await this.reverseMany([k]);
    if (!found) throw nameErrors.primaryNotFound(k.asset);
    return found;
  }

  /** The primary names of several validated keys, in their order (null where none is served), in one read. */
  async reverseMany(keys: readonly ReverseKey[]): Promise<(PrimaryName | null)[]> {
    const rows = await selectPrimaries(this.db, keys);
    return keys.map((k, i) => this.served(k, rows[i] ?? null));
  }

  /** A challenge to sign with `address` to make `name` its primary name; the name must resolve to it already. */
  async challenge(
    account: Account,
    nameInput: string,
    assetInput: string,
    addressInput: string,
  ): Promise<ProofChallenge> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    await heldName(this.db, { kind: 'account', account }, n, false);
    const address = validAddress(asset, addressInput, this.o.network);
    assertProvable(asset, address, this.o.network);
    await this.linkedOrConflict(this.db, n, asset, address);
    return issueProofChallenge(this.db, 'primary', {
      account,
      n,
      asset,
      address,
      issuedAt: this.o.now(),
      ttlMs: this.o.challengeTtlMs,
    });
  }

  /** Makes `name` the primary name of `address` after checking the signature of the challenge `nonce` names. */
  async setProved(
    account: Account,
    nameInput: string,
    assetInput: string,
    b: { address: string; signature?: string | undefined; nonce?: string | undefined },
  ): Promise<PrimaryName> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    const holder: Holder = { kind: 'account', account };
    await heldName(this.db, holder, n, false);
    const address = validAddress(asset, b.address, this.o.network);
    if (!b.signature || !b.nonce) throw nameErrors.primaryProofRequired(asset);
    const at = this.o.now();
    const nonce = await verifiedChallenge(
      this.db,
      'primary',
      { account, n, asset, address, at, network: this.o.network },
      { nonce: b.nonce, signature: b.signature },
    );
    return this.set(holder, n, asset, address, at, nonce);
  }

  /** Makes `name` the primary name of `address` without proof: partners custody their users' addresses. */
  async setCustodial(
    partnerId: string,
    nameInput: string,
    assetInput: string,
    addressInput: string,
  ): Promise<PrimaryName> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    const holder: Holder = { kind: 'partner', partnerId };
    await heldName(this.db, holder, n, false);
    const address = validAddress(asset, addressInput, this.o.network);
    return this.set(holder, n, asset, address, this.o.now(), null);
  }

  /** Stops `name` being the primary name of any address of `asset`; 404 PRIMARY_NAME_NOT_SET when it is none's. */
  async clear(
    holder: Holder,
    nameInput: string,
    assetInput: string,
  ): Promise<{ name: string; asset: string; cleared: string[] }> {
    const n = this.parse(nameInput);
    const asset = parseAsset(assetInput);
    const at = this.o.now();
    return this.db.transaction(async (tx) => {
      await heldName(tx, holder, n, true);
      const gone = await deletePrimaries(tx, n.label, asset);
      if (gone.length === 0) throw nameErrors.primaryNotSet(n.name, asset);
      for (const g of gone) {
        const from = `${g.asset}:${g.address}`;
        await auditName(
          tx,
          holder,
          { action: 'name.primary', label: n.label, from, to: null, reason: null },
          at,
        );
      }
      return { name: n.name, asset, cleared: gone.map((g) => g.address) };
    });
  }

  private async set(
    holder: Holder,
    n: ParsedName,
    asset: string,
    address: string,
    at: number,
    nonce: string | null,
  ): Promise<PrimaryName> {
    return this.db.transaction(async (tx) => {
      await heldName(tx, holder, n, true);
      await this.linkedOrConflict(tx, n, asset, address);
      if (nonce !== null && !(await repo.consumeChallenge(tx, nonce, at))) throw nameErrors.challengeUsed();
      const before = await upsertPrimary(tx, asset, address, n.label, at);
      const proof = nonce !== null ? `proof of control, challenge ${nonce}` : 'custodial (partner)';
      await auditName(
        tx,
        holder,
        {
          action: 'name.primary',
          label: n.label,
          from: before === null ? null : `${asset}:${address} was ${before}.${this.o.suffix}`,
          to: `${asset}:${address}`,
          reason: proof,
        },
        at,
      );
      return { address, asset, name: n.name, updatedAt: at };
    });
  }

  /** 409 PRIMARY_NEEDS_LINK unless the name resolves to `address` for `asset` right now. */
  private async linkedOrConflict(
    q: Parameters<typeof repo.selectAddresses>[0],
    n: ParsedName,
    asset: string,
    address: string,
  ): Promise<void> {
    const linked = (await repo.selectAddresses(q, [n.label])).get(n.label)?.[asset]?.address;
    if (linked !== address) throw nameErrors.primaryNeedsLink(n.name, asset);
  }

  /** A stored record as served: only when public and forward-verified (the name resolves to the address). */
  private served(k: ReverseKey, row: PrimaryRow | null): PrimaryName | null {
    if (!row || row.private || row.linked !== k.address) return null;
    return {
      address: k.address,
      asset: k.asset,
      name: `${row.label}.${this.o.suffix}`,
      updatedAt: row.updatedAt,
    };
  }

  private parse(input: string): ParsedName {
    return parseName(input, this.o.suffix);
  }
}
