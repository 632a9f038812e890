/**
 * Schema checks (docs/apps.md, "Schema checks"): what the domain knows of them. A proposed API schema is compared with
 * the current one, and each breaking change is listed with the published documents it breaks, each marked in use or
 * not. The comparison itself needs GraphQL, which the domain does not know: it is a {@link SchemaCheck} built over
 * graphql-js by the router (`router/trusted/schema-check.ts`) and handed in, as the publish check is.
 */
import { appErrors, SCHEMA_MAX_BYTES } from './app-errors.ts';

/** One document as published in one version of one app. */
export interface PublishedDocument {
  appId: string;
  /** The app's name (unique within its account). */
  app: string;
  version: string;
  /** SHA-256 (hex) of the body. */
  hash: string;
  /** The operation's name as the manifest gave it; null: read from the body. */
  name: string | null;
  body: string;
}

/** A document's traffic in the check's window: `requests` when counted, null when unknown. */
export interface DocumentUsage {
  inUse: boolean;
  requests: number | null;
}

/** A document of one app, with every version of the app that lists it and why it breaks. */
export interface AffectedDocument extends DocumentUsage {
  appId: string;
  app: string;
  versions: string[];
  /** As the client preset sends it: `sha256:<hex>`. */
  documentId: string;
  /** Its operations' names (comma-separated), or null for an anonymous one. */
  operationName: string | null;
  /** The validation errors against the proposed schema (or what else makes the change break it). */
  reasons: string[];
}

export interface SchemaChangeReport {
  /** graphql-js's type of the change, e.g. `FIELD_REMOVED`. */
  type: string;
  description: string;
  /** The schema coordinates the change names (`Coin.price`, `Query.coins(ids:)`, `Currency.USD`). */
  coordinates: string[];
  documents: AffectedDocument[];
}

export interface SchemaCheckReport {
  /** True when a document in use breaks: under a breaking change or under `other`. */
  breaksDocumentsInUse: boolean;
  /** How many documents (per app) were checked. */
  documents: number;
  breaking: SchemaChangeReport[];
  /** Changes that break no document by validation but may change what a client sees (graphql-js's list). */
  dangerous: Array<{ type: string; description: string }>;
  /** Documents the proposed schema breaks on no listed change. */
  other: AffectedDocument[];
  /** Documents that do not validate against the current schema either: not counted as broken by the proposal. */
  alreadyInvalid: AffectedDocument[];
}

/**
 * Compares the proposed schema's SDL with the current schema and `documents`; throws 400 `INVALID_SCHEMA` (the
 * parser's or the schema validation's message) for SDL that is not a valid schema.
 */
export type SchemaCheck = (
  proposedSdl: string,
  documents: readonly PublishedDocument[],
  usage: (doc: { appId: string; hash: string }) => DocumentUsage,
) => Promise<SchemaCheckReport>;

/**
 * The proposed SDL from what a caller sent: the text itself, or `{ "schema": "<SDL>" }`; at most
 * {@link SCHEMA_MAX_BYTES} (413 `SCHEMA_TOO_LARGE`), not empty (400 `INVALID_SCHEMA`).
 */
export function proposedSdl(input: unknown): string {
  const sdl =
    input && typeof input === 'object' && !Array.isArray(input) && 'schema' in input
      ? (input as { schema: unknown }).schema
      : input;
  if (typeof sdl !== 'string') throw appErrors.invalidSchema(`expected SDL text, got ${kindOf(sdl)}`);
  if (Buffer.byteLength(sdl, 'utf8') > SCHEMA_MAX_BYTES) throw appErrors.schemaTooLarge();
  if (sdl.trim() === '') throw appErrors.invalidSchema('it is empty');
  return sdl;
}

function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object without "schema"' : `a ${typeof v}`;
}
