/**
 * Persisted operations (trusted documents), before parsing. The manifest is either Apollo's persisted query manifest
 * (`{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id", "body", … }] }`) or
 * graphql-codegen's client-preset `persisted-documents.json` (`{ "<id>": "<body>" }`).
 *
 * An operation naming a manifest id (`documentId`, or `extensions.persistedQuery.sha256Hash`) runs the manifest's
 * body; an unknown `documentId` is `PERSISTED_QUERY_NOT_FOUND` in either mode. Mode `allow` (default when a manifest
 * is given): other operations run as usual (automatic persisted queries included). Mode `safelist`: only manifest
 * operations run — by id, or with a body identical to a manifest body (with or without an APQ hash); any other body
 * is refused with `PERSISTED_QUERY_NOT_IN_LIST` and an unknown APQ hash without a body with
 * `PERSISTED_QUERY_NOT_FOUND` (so an APQ client sends the body, which the safelist then judges), before parsing.
 */
import { readFileSync } from 'node:fs';
import { routerErrors } from '../errors.ts';
import type { RawOperation, RouterPlugin } from '../plugin.ts';

export type SafelistMode = 'allow' | 'safelist';

/** Manifest id → operation body. */
export type PersistedManifest = ReadonlyMap<string, string>;

/** Parses a manifest file's JSON (either format); throws naming what is wrong. */
export function parseManifest(json: string, file = 'manifest'): PersistedManifest {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch {
    throw new Error(`${file}: not JSON`);
  }
  const out = new Map<string, string>();
  if (doc && typeof doc === 'object' && !Array.isArray(doc) && 'operations' in doc) {
    const ops = (doc as { operations: unknown }).operations;
    if (!Array.isArray(ops)) throw new Error(`${file}: "operations" must be an array`);
    for (const [i, op] of ops.entries()) {
      const o = op as { id?: unknown; body?: unknown };
      if (typeof o.id !== 'string' || typeof o.body !== 'string')
        throw new Error(`${file}: operations[${i}] needs string "id" and "body"`);
      out.set(o.id, o.body);
    }
    return out;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new Error(`${file}: expected an Apollo persisted query manifest or a { id: body } object`);
  for (const [id, body] of Object.entries(doc)) {
    if (typeof body !== 'string') throw new Error(`${file}: the body of ${id} must be a string`);
    out.set(id, body);
  }
  return out;
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'a directory, not a file',
};

/** Reads and parses a manifest file; throws `cannot read <path> (no such file)` or the parse error naming the file. */
export function loadManifest(path: string): PersistedManifest {
  let json: string;
  try {
    json = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new Error(`cannot read ${path} (${READ_ERRORS[code] ?? (code || String(err))})`);
  }
  return parseManifest(json, path);
}

function persistedId(op: RawOperation): string | null {
  if (typeof op.documentId === 'string') return op.documentId;
  const pq = op.extensions?.['persistedQuery'];
  if (pq && typeof pq === 'object' && typeof (pq as { sha256Hash?: unknown }).sha256Hash === 'string')
    return (pq as { sha256Hash: string }).sha256Hash;
  return null;
}

export function persistedOperationsPlugin(manifest: PersistedManifest, mode: SafelistMode): RouterPlugin {
  const bodies = new Set(manifest.values());
  return {
    name: 'persisted-operations',
    onHttpRequest(req) {
      for (const op of req.operations) {
        const id = persistedId(op);
        // graphql-codegen's client preset names documents `sha256:<hex>`; an APQ-style `sha256Hash` is the bare hex.
        const body = id === null ? undefined : (manifest.get(id) ?? manifest.get(`sha256:${id}`));
        if (body !== undefined) {
          op.query = body;
          delete op.documentId;
          if (op.extensions) {
            const { persistedQuery: _drop, ...rest } = op.extensions;
            op.extensions = rest;
          }
          continue;
        }
        // An id the manifest does not hold: a persisted document is not found in either mode.
        if (typeof op.documentId === 'string') throw routerErrors.unknownDocument(op.documentId);
        if (mode === 'allow') continue;
        // Safelist: a listed body runs whatever hash came with it (an APQ client's sha256 need not be the
        // manifest's id); an unlisted one never does.
        if (typeof op.query === 'string') {
          if (bodies.has(op.query)) continue;
          throw routerErrors.notInSafelist();
        }
        // A hash alone (automatic persisted queries): not found, so an APQ client resends the body, which the
        // safelist then judges.
        if (id !== null) throw routerErrors.unknownDocument(id);
        throw routerErrors.notInSafelist();
      }
    },
  };
}
