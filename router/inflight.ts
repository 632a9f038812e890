/**
 * In-flight deduplication, of whole operations (here) and of subgraph fetches over HTTP (`sources/http.ts`).
 *
 * Operations: while a query is executing, an identical one — same operation text,
 * operation name, variables and extensions, same `authorization` (the only header the subgraphs read) and same plan
 * (which sets the cost ceiling and the `extensions.cost` of the answer) — waits for that execution and gets its
 * answer instead of executing again. As Hive Gateway's inbound in-flight deduplication, with the caller's credentials
 * in the key.
 *
 * Runs after the per-caller checks of the HTTP phase (key, budget, limits, safelist): every request still counts
 * against its own budget and carries its own `X-RateLimit-*` headers; only the execution is shared. Never a mutation,
 * nor an operation whose type cannot be read here without a query text (an APQ hash alone): those always execute.
 * Nothing is kept once the execution ends; a later request executes afresh. A deduplicable query starts on the next
 * turn of the event loop (`setImmediate`), so that identical ones read in the same I/O phase share it.
 */
import { LRUCache } from 'lru-cache';
import { Kind, parse } from 'graphql';
import type { RawOperation } from './plugin.ts';

/**
 * Parsed verdicts kept per operation text (the same few texts come again and again), least recently used dropped:
 * at most 1,000, and at most 4 Mi characters of text in all (the key is the whole text).
 */
const MAX_VERDICTS = 1_000;
const MAX_VERDICT_TEXT = 4 * 1024 * 1024;

export interface Inflight<T> {
  /**
   * Runs `execute`, or joins the identical query already running. `key` null: always runs. `shared` is true for a
   * request that joined.
   */
  run(key: string | null, execute: () => Promise<T>): Promise<{ result: T; shared: boolean }>;
  /** Requests answered by joining an execution, since start. */
  shared(): number;
}

/**
 * `defer`: start an execution on the next turn of the event loop, so that identical work read in the same I/O phase
 * joins it (work that never waits for I/O would otherwise end before the next request is read).
 */
export function createInflight<T>(opts: { defer: boolean }): Inflight<T> {
  const running = new Map<string, Promise<T>>();
  let shared = 0;
  return {
    shared: () => shared,
    async run(key, execute) {
      if (key === null) return { result: await execute(), shared: false };
      const pending = running.get(key);
      if (pending) {
        const result = await pending;
        shared++;
        return { result, shared: true };
      }
      const p = opts.defer ? new Promise<void>((resolve) => setImmediate(resolve)).then(execute) : execute();
      running.set(key, p);
      try {
        return { result: await p, shared: false };
      } finally {
        running.delete(key);
      }
    },
  };
}

const verdicts = new LRUCache<string, boolean>({
  max: MAX_VERDICTS,
  maxSize: MAX_VERDICT_TEXT,
  sizeCalculation: (_v, k) => k.length + 1,
});

/** Whether `query` (with `operationName`) is a query operation; false when it cannot be parsed or chosen. */
function isQuery(query: string, operationName: string | undefined): boolean {
  const k = `${operationName ?? ''}\u0000${query}`;
  let v = verdicts.get(k);
  if (v === undefined) {
    try {
      const ops = parse(query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      const op =
        operationName === undefined
          ? ops.length === 1
            ? ops[0]
            : undefined
          : ops.find((o) => o.name?.value === operationName);
      v = op?.operation === 'query';
    } catch {
      v = false;
    }
    verdicts.set(k, v);
  }
  return v;
}

/**
 * The deduplication key of one operation as the router hands it to the gateway, or null when it must execute on its
 * own: only JSON POSTs (a GET's CSRF check and a simple POST's refusal depend on headers outside the key), only
 * queries. The key holds the body as sent, the `accept` header (it sets the media type and some statuses), the
 * `authorization` header and the plan.
 */
export function inflightKey(
  method: string,
  headers: Readonly<Record<string, string | undefined>>,
  op: RawOperation,
  body: unknown,
  plan: string,
): string | null {
  if (method !== 'POST' || !headers['content-type']?.toLowerCase().startsWith('application/json'))
    return null;
  if (op.query === undefined || !isQuery(op.query, op.operationName)) return null;
  // An incremental answer is a stream each request reads for itself.
  if (headers['accept']?.startsWith('multipart/')) return null;
  try {
    return JSON.stringify([body, headers['accept'] ?? null, headers['authorization'] ?? null, plan]);
  } catch {
    return null; // variables nested past the stack (the gateway refuses them as the client's error)
  }
}
