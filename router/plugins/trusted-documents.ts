/**
 * Trusted documents of a key's app (docs/apps.md), before parsing. A key in an app runs the documents of the app's
 * active versions by id: `documentId` (`sha256:<hex>` of the client preset, or the bare hex) or an APQ
 * `extensions.persistedQuery.sha256Hash`; the operation gets the stored body. A key set to `documents: trusted-only`
 * runs nothing else: a body identical to a trusted one runs, any other operation is refused with 400
 * `PERSISTED_QUERY_NOT_IN_LIST` (an APQ hash alone that is not trusted: `PERSISTED_QUERY_NOT_FOUND`, so an APQ client
 * sends the body, which is then judged). An id the app does not hold, on a key that is not trusted-only, goes on to
 * the operator's manifest (`persisted-operations.ts`), which runs after this plugin.
 */
import type { AppPolicies } from '../../src/accounts/app-policy.ts';
import { appErrors } from '../../src/accounts/app-errors.ts';
import { hashOfId } from '../../src/accounts/app-manifest.ts';
import type { RawOperation, RouterPlugin } from '../plugin.ts';

function apqHash(op: RawOperation): string | null {
  const pq = op.extensions?.['persistedQuery'];
  const h = pq && typeof pq === 'object' ? (pq as { sha256Hash?: unknown }).sha256Hash : undefined;
  return typeof h === 'string' ? h : null;
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
        const id = typeof op.documentId === 'string' ? op.documentId : apqHash(op);
        const hash = id === null ? null : hashOfId(id);
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
