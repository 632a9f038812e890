import { errorCatalog } from '../core/errors.ts';

/** Largest manifest accepted at publish: its JSON text, in bytes (1 MiB). */
export const MANIFEST_MAX_BYTES = 1024 * 1024;
/** Most documents one version may hold. */
export const MANIFEST_MAX_DOCUMENTS = 2_000;
/** Most allowed origins per app, and most keys per app. */
export const APP_MAX_ORIGINS = 50;
export const APP_MAX_KEYS = 20;
/** Largest proposed schema a schema check takes: its SDL, in bytes (1 MiB; `schema/api.graphql` is about 67 KiB). */
export const SCHEMA_MAX_BYTES = 1024 * 1024;

const quote = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
const shown = (v: unknown): string => quote(typeof v === 'string' ? v : String(JSON.stringify(v)));

/**
 * The apps' error catalog (docs/apps.md, "Errors"): registering apps, publishing versions of trusted documents, and
 * the per-key policy both transports apply (`ORIGIN_NOT_ALLOWED` on REST and the graph, `PERSISTED_QUERY_NOT_IN_LIST`
 * on the graph, the code the router's operator-wide safelist uses too).
 */
export const appErrors = errorCatalog('apps', {
  invalidName: {
    status: 400,
    code: 'INVALID_APP_NAME',
    message:
      'name must be 1 to 63 characters: lowercase letters, digits and dashes, starting with a letter or digit (e.g. "my-dapp")',
  },
  invalidOrigin: {
    status: 400,
    code: 'INVALID_ORIGIN',
    message: (given: unknown) =>
      `origins must be an array of at most ${APP_MAX_ORIGINS} origins written as a browser sends them, scheme://host[:port] (http or https, lowercase, no default port, path or trailing slash, e.g. "https://app.example.com"); got ${shown(given)}`,
  },
  invalidKeys: {
    status: 400,
    code: 'INVALID_KEYS',
    message: `keys must be an array of at most ${APP_MAX_KEYS} API key ids (UUIDs)`,
  },
  invalidVersion: {
    status: 400,
    code: 'INVALID_VERSION',
    message:
      'version must be 1 to 64 characters: letters, digits and . _ + -, starting with a letter or digit (e.g. "1.4.0" or a commit hash)',
  },
  invalidDocumentsPolicy: {
    status: 400,
    code: 'INVALID_DOCUMENTS_POLICY',
    message: 'documents must be "any" or "trusted-only"',
  },
  appNotFound: {
    status: 404,
    code: 'APP_NOT_FOUND',
    message: (name: string) => `you have no app named ${quote(name)}: create it with POST /api/account/apps`,
  },
  versionNotFound: {
    status: 404,
    code: 'VERSION_NOT_FOUND',
    message: (app: string, version: string) => `app ${quote(app)} has no version ${quote(version)}`,
  },
  appExists: {
    status: 409,
    code: 'APP_EXISTS',
    message: (name: string) => `you already have an app named ${quote(name)}: names are unique per account`,
  },
  keyInOtherApp: {
    status: 409,
    code: 'KEY_IN_OTHER_APP',
    message: (id: string) => `API key ${id} already belongs to another app: a key serves one app`,
  },
  versionExists: {
    status: 409,
    code: 'VERSION_EXISTS',
    message: (app: string, version: string) =>
      `app ${quote(app)} already has version ${quote(version)}: versions are immutable, publish a new version`,
  },
  invalidPublishToken: {
    status: 401,
    code: 'INVALID_PUBLISH_TOKEN',
    message:
      "the bearer token is not this app's publish token (shown once when the app was created, or rotated with POST /api/account/apps/{app}/publish-token)",
    headers: { 'www-authenticate': 'Bearer' },
  },

  // The manifest.
  invalidJson: {
    status: 400,
    code: 'INVALID_JSON',
    message: 'manifest must be JSON: a persisted-documents.json or an Apollo persisted query manifest',
  },
  manifestTooLarge: {
    status: 413,
    code: 'MANIFEST_TOO_LARGE',
    message: `manifest must be at most ${MANIFEST_MAX_BYTES / 1024 / 1024} MiB of JSON: split the documents across apps`,
  },
  tooManyDocuments: {
    status: 400,
    code: 'TOO_MANY_DOCUMENTS',
    message: (n: number) =>
      `a version holds at most ${MANIFEST_MAX_DOCUMENTS} documents; this manifest has ${n}`,
  },
  invalidManifest: {
    status: 400,
    code: 'INVALID_MANIFEST',
    message: (what: string) =>
      `manifest must be graphql-codegen's persisted-documents.json ({ "sha256:<hex>": "<document>" }) or an Apollo persisted query manifest ({ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id", "name", "type", "body" }] }): ${what}`,
  },
  hashMismatch: {
    status: 400,
    code: 'DOCUMENT_HASH_MISMATCH',
    message: (id: string, actual: string) =>
      `document ${quote(id)}: its id must be the SHA-256 of its body (hex, optionally prefixed "sha256:"); the body hashes to ${actual}`,
  },
  invalidDocument: {
    status: 400,
    code: 'DOCUMENT_INVALID',
    message: (id: string, reason: string) =>
      `document ${quote(id)} is not valid against the current API schema: ${reason}`,
  },
  documentOverCost: {
    status: 400,
    code: 'DOCUMENT_OVER_COST',
    message: (id: string, cost: number, plan: string, ceiling: number) =>
      `document ${quote(id)} costs ${cost}, over the ${plan} plan's ceiling of ${ceiling} per operation (docs/query-cost.md): ask for fewer items`,
  },

  // The per-key policy.
  originNotAllowed: {
    status: 403,
    code: 'ORIGIN_NOT_ALLOWED',
    message: (origin: string) =>
      `this API key's app does not allow the origin ${quote(origin)}: its owner lists the allowed origins on the app (docs/apps.md)`,
  },
  notInTrustedList: {
    status: 400,
    code: 'PERSISTED_QUERY_NOT_IN_LIST',
    message:
      "this API key runs only its app's trusted documents: send the documentId (or extensions.persistedQuery.sha256Hash, or the identical body) of a document in an active version of the app",
  },
  unknownTrustedHash: {
    status: 400,
    code: 'PERSISTED_QUERY_NOT_FOUND',
    message: (id: string) =>
      `no trusted document of this API key's app has the hash ${quote(id)}: send the query text with it`,
  },

  // Schema checks (docs/apps.md, "Schema checks").
  invalidSchema: {
    status: 400,
    code: 'INVALID_SCHEMA',
    message: (reason: string) =>
      `the proposed schema must be a complete, valid GraphQL SDL document, as schema/api.graphql (sent as the body, text/plain, or as { "schema": "<SDL>" }): ${reason}`,
  },
  schemaTooLarge: {
    status: 413,
    code: 'SCHEMA_TOO_LARGE',
    message: `the proposed schema must be at most ${SCHEMA_MAX_BYTES / 1024 / 1024} MiB of SDL`,
  },
});
