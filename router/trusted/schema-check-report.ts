/**
 * A schema check (docs/apps.md, "Schema checks"): a proposed API schema compared with the current one by graphql-js's
 * own `findBreakingChanges` and `findDangerousChanges` (the rules graphql-inspector builds on), and, for each breaking
 * change, the published documents it breaks. A document is broken when it does not validate against the proposed
 * schema (graphql-js's `validate`, the specified rules); each validation error is laid on the change whose coordinates
 * its nodes refer to (`schema-check-coordinates.ts`). A document that fails on no listed change is listed under
 * `other`, one that does not validate against the current schema either under `alreadyInvalid`. Pure: the documents
 * and their traffic are the caller's (`src/accounts/schema-check-service.ts`), the report's types the domain's.
 */
import {
  findBreakingChanges,
  findDangerousChanges,
  isInputObjectType,
  Kind,
  parse,
  validate,
  BreakingChangeType,
} from 'graphql';
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import { setImmediate } from 'node:timers/promises';
import type {
  AffectedDocument,
  DocumentUsage,
  PublishedDocument,
  SchemaChangeReport,
  SchemaCheckReport,
} from '../../src/accounts/schema-check.ts';
import { changeCoordinates, nodeCoordinates } from './schema-check-coordinates.ts';

const NO_TRAFFIC: DocumentUsage = { inUse: false, requests: null };
/** The longest the check runs without letting the event loop turn. */
const YIELD_AFTER_MS = 20;

/**
 * Checks `proposed` against `current` (both valid schemas) and the published `documents`. `usage` gives a
 * document's traffic per app (default: none). Each document body is parsed and validated once, however many apps
 * and versions list it.
 */
export async function checkSchema(
  current: GraphQLSchema,
  proposed: GraphQLSchema,
  documents: readonly PublishedDocument[],
  usage: (doc: { appId: string; hash: string }) => DocumentUsage = () => NO_TRAFFIC,
): Promise<SchemaCheckReport> {
  const changes = findBreakingChanges(current, proposed).map((c) => ({
    type: c.type,
    description: c.description,
    coordinates: changeCoordinates(c),
  }));
  const retyped = changes.some((c) => isRetypedOutputField(current, c));
  const verdicts = new Map<string, Verdict>();
  const groups = new Map<string, Group>();
  let slice = performance.now();
  for (const d of documents) {
    const key = `${d.appId}\u0000${d.hash}`;
    const g = groups.get(key);
    if (g) {
      if (!g.versions.includes(d.version)) g.versions.push(d.version);
      g.name ??= d.name;
      continue;
    }
    groups.set(key, { appId: d.appId, app: d.app, hash: d.hash, name: d.name, versions: [d.version] });
    if (verdicts.has(d.hash)) continue;
    verdicts.set(d.hash, judge(current, proposed, d.body, changes, retyped));
    // Thousands of documents take seconds of CPU: the server's other requests are answered in between.
    if (performance.now() - slice > YIELD_AFTER_MS) {
      await setImmediate();
      slice = performance.now();
    }
  }

  const breaking: SchemaChangeReport[] = changes.map((c) => ({ ...c, documents: [] }));
  const other: AffectedDocument[] = [];
  const alreadyInvalid: AffectedDocument[] = [];
  for (const g of groups.values()) {
    const v = verdicts.get(g.hash) as Verdict;
    const affected = (reasons: string[]): AffectedDocument => ({
      appId: g.appId,
      app: g.app,
      versions: g.versions,
      documentId: `sha256:${g.hash}`,
      operationName: g.name ?? v.operationName,
      reasons,
      ...usage({ appId: g.appId, hash: g.hash }),
    });
    if (v.kind === 'invalid') alreadyInvalid.push(affected(v.reasons));
    if (v.kind !== 'judged') continue;
    v.byChange.forEach((reasons, i) => breaking[i]?.documents.push(affected(reasons)));
    if (v.other.length > 0) other.push(affected(v.other));
  }
  for (const c of breaking) c.documents.sort(byUse);
  other.sort(byUse);
  alreadyInvalid.sort(byUse);
  return {
    breaksDocumentsInUse: [...breaking.flatMap((c) => c.documents), ...other].some((d) => d.inUse),
    documents: groups.size,
    breaking,
    dangerous: findDangerousChanges(current, proposed).map((c) => ({
      type: c.type,
      description: c.description,
    })),
    other,
    alreadyInvalid,
  };
}

interface Group {
  appId: string;
  app: string;
  hash: string;
  name: string | null;
  versions: string[];
}

type Verdict =
  | { kind: 'invalid'; reasons: string[]; operationName: string | null }
  /** Per change index, the reasons it breaks this document; `other`: errors no change explains. */
  | { kind: 'judged'; byChange: Map<number, string[]>; other: string[]; operationName: string | null };

type Change = { type: BreakingChangeType; description: string; coordinates: string[] };

function judge(
  current: GraphQLSchema,
  proposed: GraphQLSchema,
  body: string,
  changes: readonly Change[],
  retyped: boolean,
): Verdict {
  let doc: DocumentNode;
  try {
    doc = parse(body);
  } catch (err) {
    return { kind: 'invalid', reasons: [(err as GraphQLError).message], operationName: null };
  }
  const operationName = operationNames(doc);
  const byChange = new Map<number, string[]>();
  const other: string[] = [];
  const errors = validate(proposed, doc);
  // The common case, a document still valid, costs one validation (and a walk only when an output field is retyped).
  if (errors.length === 0 && !retyped) return { kind: 'judged', byChange, other, operationName };
  if (errors.length > 0) {
    const now = validate(current, doc);
    if (now.length > 0) return { kind: 'invalid', reasons: messages(now), operationName };
  }
  const coords = nodeCoordinates(current, doc);
  const note = (i: number, reason: string): void => {
    const list = byChange.get(i) ?? [];
    if (!list.includes(reason)) list.push(reason);
    byChange.set(i, list);
  };
  for (const error of errors) {
    const touched = new Set((error.nodes ?? []).flatMap((n) => [...(coords.get(n) ?? [])]));
    let laid = false;
    changes.forEach((c, i) => {
      if (c.coordinates.some((x) => touched.has(x))) {
        note(i, error.message);
        laid = true;
      }
    });
    if (!laid && !other.includes(error.message)) other.push(error.message);
  }
  // An output field whose type changes leaves a document that selects it valid, but its answer changes shape (a
  // typed client's generated types no longer match): that document is broken by the change too.
  const used = new Set([...coords.values()].flatMap((set) => [...set]));
  changes.forEach((c, i) => {
    if (isRetypedOutputField(current, c) && !byChange.has(i) && used.has(c.coordinates[0] ?? ''))
      note(i, `selects ${c.coordinates[0]}, whose type changes: ${c.description}`);
  });
  return { kind: 'judged', byChange, other, operationName };
}

/** A `FIELD_CHANGED_KIND` of an object's or interface's field (an input object's fields are judged by validation). */
function isRetypedOutputField(current: GraphQLSchema, c: Change): boolean {
  const owner = current.getType(c.coordinates[0]?.split('.')[0] ?? '');
  return c.type === BreakingChangeType.FIELD_CHANGED_KIND && owner !== undefined && !isInputObjectType(owner);
}

function operationNames(doc: DocumentNode): string | null {
  const names = doc.definitions.flatMap((d) =>
    d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : [],
  );
  return names.length > 0 ? names.join(', ') : null;
}

const messages = (errors: readonly GraphQLError[]): string[] => [...new Set(errors.map((e) => e.message))];

/** Documents in use first (most requests first), then by app and operation name. */
function byUse(a: AffectedDocument, b: AffectedDocument): number {
  return (
    Number(b.inUse) - Number(a.inUse) ||
    (b.requests ?? 0) - (a.requests ?? 0) ||
    a.app.localeCompare(b.app) ||
    (a.operationName ?? '').localeCompare(b.operationName ?? '') ||
    a.documentId.localeCompare(b.documentId)
  );
}
