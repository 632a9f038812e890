/**
 * Dapp listing requests and the dapp store: the domain functions both the REST routes and the accounts subgraph call.
 * States: `submitted` → `approved` | `rejected`; `approved` → `delisted` (rejected and delisted are final). Every
 * change is written to `audit_log` in the transaction that makes it.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../store/db.ts';
import { writeAudit } from './audit.ts';
import {
  DAPP_LIMITS,
  dappErrors,
  nextSubmission,
  parseOrigin,
  validateDappInput,
  validateNotes,
} from './dapp-validate.ts';
import type { DappInput, DappRules } from './dapp-validate.ts';
import { actorLabel } from './types.ts';
import type { Account, Actor } from './types.ts';
import { isUuid } from '../core/ids.ts';

export { DAPP_CHAINS, DAPP_LIMITS, dappErrors } from './dapp-validate.ts';
export type { DappInput } from './dapp-validate.ts';

export type DappStatus = 'submitted' | 'approved' | 'rejected' | 'delisted';
export const DAPP_STATUSES: readonly DappStatus[] = ['submitted', 'approved', 'rejected', 'delisted'];

/** A listing request as its submitter and the admins see it. Times are UNIX ms. */
export interface DappRecord {
  id: string;
  accountId: string;
  name: string;
  site: string;
  /** `site`'s origin: what the wallet's access check compares. */
  origin: string;
  icon: string;
  description: string;
  contactEmail: string;
  chains: string[];
  status: DappStatus;
  /** Notes of the latest review decision (approve, reject, delist); null before or when none were given. */
  reviewNotes: string | null;
  /** `actorLabel` of the latest reviewer; admins only (`ownView` drops it). */
  reviewedBy: string | null;
  createdAt: number;
  reviewedAt: number | null;
}

/** The submitter's view: the record without the reviewer's identity. */
export type OwnDapp = Omit<DappRecord, 'reviewedBy'>;

/** A public dapp store entry: no contact e-mail, no account. */
export interface StoreDapp {
  id: string;
  name: string;
  site: string;
  origin: string;
  icon: string;
  description: string;
  chains: string[];
  approvedAt: number;
}

export interface StorePage {
  page: number;
  perPage: number;
  /** Approved dapps matching the filter, over all pages. */
  total: number;
  dapps: StoreDapp[];
}

export interface AccessResult {
  /** The normalised origin that was checked. */
  origin: string;
  allowed: boolean;
  dappId: string | null;
}

export interface DappServiceOptions {
  /** Clock in ms; default `Date.now`. */
  now?: (() => number) | undefined;
  /**
   * Accept sites and icons on loopback, private and link-local hosts (`DAPP_ALLOW_PRIVATE_URLS`, development only);
   * default false.
   */
  allowPrivateHosts?: boolean | undefined;
}

interface Row {
  id: string;
  account_id: string;
  name: string;
  site: string;
  site_origin: string;
  icon: string;
  description: string;
  contact_email: string;
  chains: string[];
  status: DappStatus;
  review_notes: string | null;
  reviewed_by: string | null;
  created_at: number;
  reviewed_at: number | null;
}

type Review = { action: 'approve' | 'reject' | 'delist'; from: DappStatus; to: DappStatus; done: string };
const REVIEWS = {
  approve: { action: 'approve', from: 'submitted', to: 'approved', done: 'approved' },
  reject: { action: 'reject', from: 'submitted', to: 'rejected', done: 'rejected' },
  delist: { action: 'delist', from: 'approved', to: 'delisted', done: 'delisted' },
} as const satisfies Record<string, Review>;

export class DappService {
  private readonly now: () => number;
  private readonly rules: DappRules;

  constructor(
    private readonly db: Db,
    opts: DappServiceOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.rules = { allowPrivateHosts: opts.allowPrivateHosts };
  }

  /**
   * A listing request from `account` (`input` is checked by `validateDappInput`: 400 naming the field). At most
   * three per account in any 24 hours, else 429 with `retry-after`. The check and the insert share a transaction
   * holding the account's row lock, so concurrent submissions cannot slip past the limit.
   */
  async submit(account: Account, input: unknown): Promise<OwnDapp> {
    const d: DappInput = validateDappInput(input, this.rules);
    if (!isUuid(account.id)) throw dappErrors.accountNotFound(account.id);
    const row = await this.db.transaction(async (tx) => {
      // Locking the account's row serialises its submissions: a concurrent one waits here, then counts this one.
      const me = await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [account.id]);
      if (me.rows.length === 0) throw dappErrors.accountNotFound(account.id);
      const now = this.now();
      const recent = await tx.query<{ created_at: number }>(
        'SELECT created_at FROM dapps WHERE account_id = $1 AND created_at > $2',
        [account.id, now - DAPP_LIMITS.windowMs],
      );
      const next = nextSubmission(
        recent.rows.map((r) => Number(r.created_at)),
        now,
      );
      if (!next.allowed)
        throw dappErrors.limited(
          new Date(next.nextAt).toISOString(),
          Math.max(1, Math.ceil((next.nextAt - now) / 1000)),
        );
      const inserted = await tx.query<Row>(
        `INSERT INTO dapps (id, account_id, name, site, site_origin, icon, description, contact_email, chains,
           status, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'submitted', $10) RETURNING *`,
        [
          randomUUID(),
          account.id,
          d.name,
          d.site,
          d.siteOrigin,
          d.icon,
          d.description,
          d.contactEmail,
          d.chains,
          now,
        ],
      );
      const r = inserted.rows[0] as Row;
      await writeAudit(
        tx,
        {
          actor: actorLabel({ kind: 'account', account }),
          action: 'dapp.submit',
          entity: 'dapp',
          entityId: r.id,
          fromState: null,
          toState: 'submitted',
          reason: null,
        },
        now,
      );
      return r;
    });
    return ownView(record(row));
  }

  /** The account's own requests, newest first. */
  async listOwn(accountId: string): Promise<OwnDapp[]> {
    if (!isUuid(accountId)) return [];
    const r = await this.db.query<Row>(
      'SELECT * FROM dapps WHERE account_id = $1 ORDER BY created_at DESC, id',
      [accountId],
    );
    return r.rows.map((x) => ownView(record(x)));
  }

  /**
   * The requests of many accounts in one read (the graph's per-request batching): account id → its records, newest
   * first (as {@link listOwn}; an unknown or malformed id → `[]`). Full records: callers hide `reviewedBy` from
   * anyone but administrators.
   */
  async listByAccounts(accountIds: readonly string[]): Promise<Map<string, DappRecord[]>> {
    const ids = [...new Set(accountIds.filter(isUuid).map((id) => id.toLowerCase()))];
    const byAccount = new Map<string, DappRecord[]>();
    if (ids.length > 0) {
      const r = await this.db.query<Row>(
        'SELECT * FROM dapps WHERE account_id = ANY($1::uuid[]) ORDER BY created_at DESC, id',
        [ids],
      );
      for (const row of r.rows) {
        const list = byAccount.get(row.account_id) ?? [];
        list.push(record(row));
        byAccount.set(row.account_id, list);
      }
    }
    // uuids come back lowercase; the ids asked for may be spelled in either case.
    return new Map(accountIds.map((id) => [id, byAccount.get(id.toLowerCase()) ?? []]));
  }

  /** Admin review list: oldest first (the queue order), optionally in one state. */
  async adminList(
    status?: DappStatus,
    page: { page: number; perPage: number } = { page: 1, perPage: 100 },
  ): Promise<DappRecord[]> {
    const r = await this.db.query<Row>(
      `SELECT * FROM dapps WHERE ($1::text IS NULL OR status = $1) ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [status ?? null, page.perPage, (page.page - 1) * page.perPage],
    );
    return r.rows.map(record);
  }

  /** submitted → approved; `notes` optional. */
  approve(id: string, actor: Actor, notes?: string | null): Promise<DappRecord> {
    return this.review(id, actor, REVIEWS.approve, validateNotes(notes, false));
  }

  /** submitted → rejected; `notes` (why) required. */
  reject(id: string, actor: Actor, notes: string): Promise<DappRecord> {
    return this.review(id, actor, REVIEWS.reject, validateNotes(notes, true));
  }

  /** approved → delisted: the dapp leaves the store and loses wallet API access; `notes` (why) required. */
  delist(id: string, actor: Actor, notes: string): Promise<DappRecord> {
    return this.review(id, actor, REVIEWS.delist, validateNotes(notes, true));
  }

  /** Approved dapps, newest listing first, optionally declaring `chain`. */
  async store(q: { page: number; perPage: number; chain?: string | undefined }): Promise<StorePage> {
    const { total, dapps } = await this.storeSlice({
      offset: (q.page - 1) * q.perPage,
      limit: q.perPage,
      chain: q.chain,
    });
    return { page: q.page, perPage: q.perPage, total, dapps };
  }

  /**
   * The store from any offset (the graph's cursor connection): `limit` approved dapps after the first `offset`, in
   * {@link store}'s order, and how many match the filter in all.
   */
  async storeSlice(q: {
    offset: number;
    limit: number;
    chain?: string | undefined;
  }): Promise<{ total: number; dapps: StoreDapp[] }> {
    const chain = q.chain ?? null;
    const where = `status = 'approved' AND ($1::text IS NULL OR $1 = ANY(chains))`;
    const [count, rows] = await Promise.all([
      this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dapps WHERE ${where}`, [chain]),
      this.db.query<Row>(
        `SELECT * FROM dapps WHERE ${where} ORDER BY reviewed_at DESC, id LIMIT $2 OFFSET $3`,
        [chain, q.limit, q.offset],
      ),
    ]);
    return { total: Number(count.rows[0]?.n ?? 0), dapps: rows.rows.map(storeView) };
  }

  /**
   * Whether `origin` (any http(s) URL: only scheme, host and port count) is the site of an approved dapp. Returns
   * null when `origin` is not such a URL.
   */
  async access(origin: string): Promise<AccessResult | null> {
    const o = parseOrigin(origin);
    if (o === null) return null;
    const r = await this.db.query<{ id: string }>(
      `SELECT id FROM dapps WHERE site_origin = $1 AND status = 'approved' ORDER BY reviewed_at, id LIMIT 1`,
      [o],
    );
    const id = r.rows[0]?.id ?? null;
    return { origin: o, allowed: id !== null, dappId: id };
  }

  private async review(id: string, actor: Actor, t: Review, notes: string | null): Promise<DappRecord> {
    if (!isUuid(id)) throw dappErrors.notFound(id);
    const row = await this.db.transaction(async (tx) => {
      const cur = (await tx.query<Row>('SELECT * FROM dapps WHERE id = $1 FOR UPDATE', [id])).rows[0];
      if (!cur) throw dappErrors.notFound(id);
      if (cur.status !== t.from) throw dappErrors.stateConflict(id, cur.status, t.done, t.from);
      const now = this.now();
      const by = actorLabel(actor);
      const updated = await tx.query<Row>(
        `UPDATE dapps SET status = $2, review_notes = $3, reviewed_by = $4, reviewed_at = $5 WHERE id = $1
         RETURNING *`,
        [id, t.to, notes, by, now],
      );
      await audit(tx, by, t, id, notes, now);
      return updated.rows[0] as Row;
    });
    return record(row);
  }
}

/** The submitter's view of a record. */
export function ownView(r: DappRecord): OwnDapp {
  const { reviewedBy: _hidden, ...own } = r;
  return own;
}

function audit(tx: Queryable, actor: string, t: Review, id: string, notes: string | null, now: number) {
  return writeAudit(
    tx,
    {
      actor,
      action: `dapp.${t.action}`,
      entity: 'dapp',
      entityId: id,
      fromState: t.from,
      toState: t.to,
      reason: notes,
    },
    now,
  );
}

function record(r: Row): DappRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    site: r.site,
    origin: r.site_origin,
    icon: r.icon,
    description: r.description,
    contactEmail: r.contact_email,
    chains: [...r.chains],
    status: r.status,
    reviewNotes: r.review_notes,
    reviewedBy: r.reviewed_by,
    createdAt: Number(r.created_at),
    reviewedAt: r.reviewed_at === null ? null : Number(r.reviewed_at),
  };
}

function storeView(r: Row): StoreDapp {
  return {
    id: r.id,
    name: r.name,
    site: r.site,
    origin: r.site_origin,
    icon: r.icon,
    description: r.description,
    chains: [...r.chains],
    approvedAt: Number(r.reviewed_at),
  };
}
