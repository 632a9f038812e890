/**
 * Trusted documents of a key's app (docs/apps.md), before parsing. A key in an app runs the documents of the app's
 * active versions by id: `documentId` (`sha256:<hex>` of the client preset, or the bare hex) or an APQ
 * `extensions.persistedQuery.sha256Hash`; the operation gets the stored body. A key set to `documents: trusted-only`
 * runs nothing else: a body identical to a trusted one runs, any other operation is refused with 400
 * `PERSISTED_QUERY_NOT_IN_LIST` (an APQ hash alone that is not trusted: `PERSISTED_QUERY_NOT_FOUND`, so an APQ client
 * sends the body, which is then judged). An id the app does not hold, on a key that is not trusted-only, goes on to
 * the operator's manifest (`persisted-operations.ts`), which runs after this plugin.
 *
 * Every operation that is one of the app's documents (by id, APQ hash or identical body, whatever the key's policy)
 * is noted in `state.documents` for usage per document, from what the policy already holds: no other read.
 */
import type { AppPolicies, KeyPolicy } from '../../src/accounts/app-policy.ts';
import { appErrors } from '../../src/accounts/app-errors.ts';
import { hashOfId } from '../../src/accounts/app-manifest.ts';
import type { DocumentUse, RawOperation, RouterPlugin } from '../plugin.ts';

function apqHash(op: RawOperation): string | null {
  const pq = op.extensions?.['persistedQuery'];
  const h = pq && typeof pq === 'object' ? (pq as { sha256Hash?: unknown }).sha256Hash : undefined;
  return typeof h === 'string' ? h : null;
}

/** The id `op` names its document by (`documentId`, else the APQ hash) and that id's SHA-256; nulls when none. */
function sentId(op: RawOperation): { id: string | null; hash: string | null } {
  const id = typeof op.documentId === 'string' ? op.documentId : apqHash(op);
  return { id, hash: id === null ? null : hashOfId(id) };
}

/** The app document of an operation sent with `hash` (its id's) and `query` under `policy`; null when none. */
function useOf(policy: KeyPolicy, hash: string | null, query: unknown): DocumentUse | null {
  const h =
    hash !== null && policy.byHash.has(hash)
      ? hash
      : typeof query === 'string'
        ? (policy.hashOfBody.get(query) ?? null)
        : null;
  const version = h === null ? undefined : policy.versionOf.get(h);
  return h === null || version === undefined
    ? null
    : { kind: 'document', appId: policy.appId, version, hash: h };
}

/** The app document `op` is under `policy` (by id, APQ hash or identical body, as sent); null when none. */
export function documentUse(policy: KeyPolicy, op: RawOperation): DocumentUse | null {
  return useOf(policy, sentId(op).hash, op.query);
}

/**
 * The app documents of a request refused before this plugin noted them (by the key, its budget or its origin), for
 * usage per document; the policy is the one the plugins read (held for a few seconds), not a new read per request.
 */
export async function refusedDocuments(
  policies: AppPolicies,
  keyId: string,
  ops: readonly RawOperation[],
): Promise<DocumentUse[]> {
  const policy = await policies.forKey(keyId).catch(() => null);
  if (!policy) return [];
  return ops.map((op) => documentUse(policy, op)).filter((d) => d !== null);
}

export function trustedDocumentsPlugin(policies: AppPolicies): RouterPlugin {
  return {
    name: 'trusted-documents',
    async onHttpRequest(req, state) {
      const key = state.caller?.key;
      if (!key) return;
      const policy = await policies.forKey(key.id);
      if (!policy) return;
      const trustedOnly = policy.documents === 'trusted-only';
      for (const op of req.operations) {
        const { id, hash } = sentId(op);
        const use = useOf(policy, hash, op.query);
        if (use) (state.documents ??= new Map()).set(op, use);
        const body = hash === null ? undefined : policy.byHash.get(hash);
        if (body !== undefined) {
          op.query = body;
          delete op.documentId;
          if (op.extensions) {
            const { persistedQuery: _drop, ...rest } = op.extensions;
            op.extensions = rest;
          }
          continue;
        }
        if (!trustedOnly) continue;
        if (typeof op.documentId === 'string') throw appErrors.notInTrustedList();
        if (typeof op.query === 'string') {
          if (policy.bodies.has(op.query)) continue;
          throw appErrors.notInTrustedList();
        }
        if (id !== null) throw appErrors.unknownTrustedHash(id);
        throw appErrors.notInTrustedList();
      }
    },
  };
}
