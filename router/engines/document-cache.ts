/**
 * The runtime's parsed documents, bounded by their weight. graphql-yoga keeps every document it parses, keyed by its
 * text (`useParserAndValidationCache`: 1,024 documents for an hour each), with no bound by bytes, and Hive Gateway's
 * runtime passes no option to change it. A document of 4,000 tokens, the most the limits let through to parsing,
 * weighs ~1 MB parsed with its locations: 1,024 distinct ones from one keyless client held ~1 GB for an hour.
 *
 * This plugin takes the place of Yoga's, which it finds among the plugins as they are initialised (the one plugin
 * with exactly Yoga's two hooks) and removes: the same caching — documents by their text, validation results by
 * document, rules and schema — with the documents bounded to `maxBytes` of estimated weight as well as to Yoga's
 * 1,024 and hour. Parse errors are not kept: a broken document is parsed again, at most 4,000 tokens of work.
 */
import type { DocumentNode, GraphQLError, GraphQLSchema, ValidationRule } from 'graphql';
import { LRUCache } from 'lru-cache';

/** A parsed document's heap weight per character of its text, with locations (measured: 1.06 MB for 9,613). */
const BYTES_PER_CHAR = 110;
/** The default bound: some 30 of the largest documents the limits allow, thousands of ordinary ones. */
export const DOCUMENTS_MAX_BYTES = 32 * 1024 * 1024;

type Validated = readonly GraphQLError[];

interface ParseHook {
  params: { source: string | { body: string } };
  setParsedDocument(doc: DocumentNode): void;
}
interface ValidateHook {
  params: { schema: GraphQLSchema; documentAST: DocumentNode; rules?: readonly ValidationRule[] | undefined };
  setResult(errors: Validated): void;
}

/** Whether `plugin` is Yoga's parse and validation cache: its only hooks are these two. */
function isYogaCache(plugin: unknown): boolean {
  if (!plugin || typeof plugin !== 'object') return false;
  const hooks = Object.keys(plugin).sort();
  return hooks.length === 2 && hooks[0] === 'onParse' && hooks[1] === 'onValidate';
}

export interface DocumentCache {
  /** The runtime plugin. */
  plugin: object;
  /** Documents kept, their estimated bytes, and whether Yoga's own cache was found and removed. */
  stats(): { documents: number; bytes: number; replacedYoga: boolean };
}

export function documentCache(maxBytes = DOCUMENTS_MAX_BYTES): DocumentCache {
  const documents = new LRUCache<string, DocumentNode>({
    max: 1_024,
    ttl: 3_600_000,
    maxSize: maxBytes,
    sizeCalculation: (_doc, text) => Math.max(1, text.length * BYTES_PER_CHAR),
  });
  /** Validation results by schema, then document, then the rules' names. */
  const validated = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, Validated>>>();
  let replacedYoga = false;
  const plugin = {
    onPluginInit({ plugins }: { plugins: unknown[] }) {
      const at = plugins.findIndex(isYogaCache);
      if (at === -1) return;
      plugins.splice(at, 1);
      replacedYoga = true;
    },
    onParse({ params, setParsedDocument }: ParseHook) {
      const text = typeof params.source === 'string' ? params.source : params.source.body;
      const doc = documents.get(text);
      if (doc) {
        setParsedDocument(doc);
        return;
      }
      return ({ result }: { result: unknown }) => {
        if (result && !(result instanceof Error)) documents.set(text, result as DocumentNode);
      };
    },
    onValidate({ params: { schema, documentAST, rules }, setResult }: ValidateHook) {
      const rulesKey = rules?.map((r) => r.name).join(',') ?? '';
      let bySchema = validated.get(schema);
      if (!bySchema) validated.set(schema, (bySchema = new WeakMap()));
      let byRules = bySchema.get(documentAST);
      if (!byRules) bySchema.set(documentAST, (byRules = new Map()));
      const known = byRules.get(rulesKey);
      if (known) {
        setResult(known);
        return;
      }
      const keep = byRules;
      return ({ result }: { result: Validated | null | undefined }) => {
        if (result) keep.set(rulesKey, result);
      };
    },
  };
  return {
    plugin,
    stats: () => ({ documents: documents.size, bytes: documents.calculatedSize, replacedYoga }),
  };
}
