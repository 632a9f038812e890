import { ApiError } from '../core/errors.ts';

/** Largest manifest accepted at publish: its JSON text, in bytes (1 MiB). */
export const MANIFEST_MAX_BYTES = 1024 * 1024;
/** Most documents one version may hold. */
export const MANIFEST_MAX_DOCUMENTS = 2_000;
/** Most allowed origins per app, and most keys per app. */
export const APP_MAX_ORIGINS = 50;
export const APP_MAX_KEYS = 20;

const quote = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

/**
 * The apps' error catalog (docs/apps.md, "Errors"): registering apps, publishing versions of trusted documents, and
 * the per-key policy both transports apply (`ORIGIN_NOT_ALLOWED` on REST and the graph, `PERSISTED_QUERY_NOT_IN_LIST`
 * on the graph, with the router's code for the operator-wide safelist).
 */
export const appErrors = {
  invalidName: () =>
    new ApiError(
      400,
      'INVALID_APP_NAME',
      'name must be 1 to 63 characters: lowercase letters, digits and dashes, starting with a letter or digit (e.g. "my-dapp")',
    ),
  invalidOrigin: (given: unknown) =>
    new ApiError(
      400,
      'INVALID_ORIGIN',
      `origins must be an array of at most ${APP_MAX_ORIGINS} origins written as scheme://host[:port] (http or https, lowercase, no path or trailing slash, e.g. "https://app.example.com"); got ${quote(String(typeof given === 'string' ? given : JSON.stringify(given)))}`,
    ),
  invalidKeys: () =>
    new ApiError(400, 'INVALID_KEYS', `keys must be an array of at most ${APP_MAX_KEYS} API key ids (UUIDs)`),
  invalidVersion: () =>
    new ApiError(
      400,
      'INVALID_VERSION',
      'version must be 1 to 64 characters: letters, digits and . _ + -, starting with a letter or digit (e.g. "1.4.0" or a commit hash)',
    ),
  invalidDocumentsPolicy: () =>
    new ApiError(400, 'INVALID_DOCUMENTS_POLICY', 'documents must be "any" or "trusted-only"'),
  appNotFound: (name: string) =>
    new ApiError(
      404,
      'APP_NOT_FOUND',
      `you have no app named ${quote(name)}: create it with POST /api/account/apps`,
    ),
  versionNotFound: (app: string, version: string) =>
    new ApiError(404, 'VERSION_NOT_FOUND', `app ${quote(app)} has no version ${quote(version)}`),
  appExists: (name: string) =>
    new ApiError(
      409,
      'APP_EXISTS',
      `you already have an app named ${quote(name)}: names are unique per account`,
    ),
  keyInOtherApp: (id: string) =>
    new ApiError(
      409,
      'KEY_IN_OTHER_APP',
      `API key ${id} already belongs to another app: a key serves one app`,
    ),
  versionExists: (app: string, version: string) =>
    new ApiError(
      409,
      'VERSION_EXISTS',
      `app ${quote(app)} already has version ${quote(version)}: versions are immutable, publish a new version`,
    ),
  invalidPublishToken: () =>
    new ApiError(
      401,
      'INVALID_PUBLISH_TOKEN',
      "the bearer token is not this app's publish token (shown once when the app was created, or rotated with POST /api/account/apps/{app}/publish-token)",
      { 'www-authenticate': 'Bearer' },
    ),

  // The manifest.
  invalidJson: () =>
    new ApiError(
      400,
      'INVALID_JSON',
      'manifest must be JSON: a persisted-documents.json or an Apollo manifest',
    ),
  manifestTooLarge: () =>
    new ApiError(
      413,
      'MANIFEST_TOO_LARGE',
      `manifest must be at most ${MANIFEST_MAX_BYTES / 1024 / 1024} MiB of JSON: split the documents across apps or versions`,
    ),
  tooManyDocuments: (n: number) =>
    new ApiError(
      400,
      'TOO_MANY_DOCUMENTS',
      `a version holds at most ${MANIFEST_MAX_DOCUMENTS} documents; this manifest has ${n}`,
    ),
  invalidManifest: (what: string) =>
    new ApiError(
      400,
      'INVALID_MANIFEST',
      `manifest must be graphql-codegen's persisted-documents.json ({ "sha256:<hex>": "<document>" }) or an Apollo persisted query manifest ({ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id", "name", "type", "body" }] }): ${what}`,
    ),
  hashMismatch: (id: string, actual: string) =>
    new ApiError(
      400,
      'DOCUMENT_HASH_MISMATCH',
      `document ${quote(id)}: its id must be the SHA-256 of its body (hex, optionally prefixed "sha256:"); the body hashes to ${actual}`,
    ),
  invalidDocument: (id: string, reason: string) =>
    new ApiError(
      400,
      'DOCUMENT_INVALID',
      `document ${quote(id)} is not valid against the current API schema: ${reason}`,
    ),
  documentOverCost: (id: string, cost: number, plan: string, ceiling: number) =>
    new ApiError(
      400,
      'DOCUMENT_OVER_COST',
      `document ${quote(id)} costs ${cost}, over the ${plan} plan's ceiling of ${ceiling} per operation (docs/query-cost.md): ask for fewer items`,
    ),

  // The per-key policy.
  originNotAllowed: (origin: string) =>
    new ApiError(
      403,
      'ORIGIN_NOT_ALLOWED',
      `this API key's app does not allow the origin ${quote(origin)}: its owner lists allowed origins on the app (docs/apps.md)`,
    ),
  notInTrustedList: () =>
    new ApiError(
      400,
      'PERSISTED_QUERY_NOT_IN_LIST',
      "this API key runs only its app's trusted documents: send the documentId (or extensions.persistedQuery.sha256Hash, or the identical body) of a document in an active version of the app",
    ),
  unknownTrustedHash: (id: string) =>
    new ApiError(
      400,
      'PERSISTED_QUERY_NOT_FOUND',
      `no trusted document of this API key's app has the hash ${quote(id)}: send the query text with it`,
    ),
};
