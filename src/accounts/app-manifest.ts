/**
 * A trusted-documents manifest as published for an app version: graphql-codegen's client-preset
 * `persisted-documents.json` (`{ "sha256:<hex>": "<document>" }`) or Apollo's persisted query manifest
 * (`{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ id, name, type, body }] }`). Pure:
 * parsing, the limits and the hash check; the schema and cost checks are the caller's ({@link DocumentCheck}).
 */
import { createHash } from 'node:crypto';
import { appErrors, MANIFEST_MAX_BYTES, MANIFEST_MAX_DOCUMENTS } from './app-errors.ts';

/** One document of a manifest: its id as written, the SHA-256 (hex) of its body, the body, and its name if given. */
export interface ManifestDocument {
  id: string;
  hash: string;
  body: string;
  name: string | null;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** SHA-256 of a document body in lowercase hex: what the client preset (`hashAlgorithm: sha256`) and APQ compute. */
export function documentHash(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex');
}

const SHA256_PREFIX = 'sha256:';

/**
 * The hex hash an id names (`sha256:<hex>` from the client preset, bare `<hex>` from Apollo's manifest and APQ), or
 * null when the id is not of that form.
 */
export function hashOfId(id: string): string | null {
  const hex = id.startsWith(SHA256_PREFIX) ? id.slice(SHA256_PREFIX.length) : id;
  return HEX64.test(hex) ? hex : null;
}

/**
 * The documents of a manifest, given as its JSON text or as parsed JSON. Refuses (400/413, codes in app-errors.ts):
 * text that is not JSON, more than {@link MANIFEST_MAX_BYTES} of JSON, another shape, no documents, more than
 * {@link MANIFEST_MAX_DOCUMENTS}, and an id that is not the SHA-256 of its body. A body listed twice counts once.
 */
export function parseTrustedManifest(input: unknown): ManifestDocument[] {
  let doc: unknown = input;
  if (typeof input === 'string') {
    if (Buffer.byteLength(input, 'utf8') > MANIFEST_MAX_BYTES) throw appErrors.manifestTooLarge();
    try {
      doc = JSON.parse(input);
    } catch {
      throw appErrors.invalidJson();
    }
  } else if (Buffer.byteLength(JSON.stringify(input) ?? '', 'utf8') > MANIFEST_MAX_BYTES) {
    throw appErrors.manifestTooLarge();
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw appErrors.invalidManifest('not an object');
  const entries = 'operations' in doc || 'format' in doc ? apolloEntries(doc) : codegenEntries(doc);
  if (entries.length === 0) throw appErrors.invalidManifest('it lists no documents');
  if (entries.length > MANIFEST_MAX_DOCUMENTS) throw appErrors.tooManyDocuments(entries.length);
  const byHash = new Map<string, ManifestDocument>();
  for (const e of entries) {
    const hash = documentHash(e.body);
    if (hashOfId(e.id) !== hash) throw appErrors.hashMismatch(e.id, hash);
    if (!byHash.has(hash)) byHash.set(hash, { ...e, hash });
  }
  return [...byHash.values()];
}

type Entry = { id: string; body: string; name: string | null };

function apolloEntries(doc: object): Entry[] {
  const m = doc as { format?: unknown; version?: unknown; operations?: unknown };
  if (m.format !== 'apollo-persisted-query-manifest' || m.version !== 1)
    throw appErrors.invalidManifest('"format" must be "apollo-persisted-query-manifest" and "version" 1');
  if (!Array.isArray(m.operations)) throw appErrors.invalidManifest('"operations" must be an array');
  return m.operations.map((op: unknown, i): Entry => {
    const o = (op ?? {}) as { id?: unknown; name?: unknown; body?: unknown };
    if (typeof o.id !== 'string' || typeof o.body !== 'string')
      throw appErrors.invalidManifest(`operations[${i}] needs string "id" and "body"`);
    return { id: o.id, body: o.body, name: typeof o.name === 'string' ? o.name : null };
  });
}

function codegenEntries(doc: object): Entry[] {
  return Object.entries(doc).map(([id, body]): Entry => {
    if (typeof body !== 'string')
      throw appErrors.invalidManifest(`the value of ${JSON.stringify(id)} must be the document text`);
    return { id, body, name: null };
  });
}
