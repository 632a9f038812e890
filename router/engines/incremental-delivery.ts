/**
 * Incremental delivery (`@defer`, `@stream` over `multipart/mixed` or `text/event-stream`, docs/graph.md): which
 * requests get it, the plugins' response phase over the payloads as they come, and the answer passed on as a stream
 * whose work ends with its last payload.
 */
import type { ExecutionResult } from 'graphql';
import { responsePhase } from '../phases.ts';
import { foldIncremental } from '../cost/incremental.ts';
import type { IncrementalPayload } from '../cost/incremental.ts';
import { peekOperation } from '../negotiation.ts';
import type { RouterPlugin } from '../plugin.ts';
import type { RouterContext } from './context.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a request is delivered incrementally: the router chose `multipart/mixed` or `text/event-stream` for it
 * (`router/negotiation.ts` offers them to operations with `@defer` or `@stream`) and its query text uses one of them.
 * Such a request runs on the runtime's JS planner, which delivers deferred fragments and streamed items as they come;
 * the Rust planner (router-runtime 1.4) accepts the directives but answers everything at once, which is what an
 * operation sent as JSON gets. A persisted query sent by its hash alone has no text here: answered at once too.
 */
export function incrementalAsked(
  method: string,
  req: { headers: Readonly<Record<string, string | undefined>>; search: string; body: unknown },
): boolean {
  const accept = (req.headers['accept'] ?? '').trimStart().toLowerCase();
  if (!accept.startsWith('multipart/mixed') && !accept.startsWith('text/event-stream')) return false;
  const sent: Record<string, unknown> =
    method === 'GET'
      ? Object.fromEntries(new URLSearchParams(req.search))
      : isObject(req.body)
        ? req.body
        : {};
  const { query, operationName } = sent;
  if (typeof query !== 'string') return false;
  return (
    peekOperation(query, typeof operationName === 'string' ? operationName : undefined)?.incremental === true
  );
}

/** A response body that calls `end` once, when it has been read to its end, fails or is cancelled (the client left). */
function endingWith(body: ReadableStream<Uint8Array>, end: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const once = () => {
    if (!ended) end();
    ended = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          once();
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        once();
        controller.error(e);
      }
    },
    async cancel(reason) {
      once();
      await reader.cancel(reason);
    },
  });
}

/** Headers of the runtime's answer that describe its framing: the HTTP server sets its own for a stream. */
const FRAMING_HEADERS = new Set(['connection', 'transfer-encoding', 'content-length', 'content-encoding']);

/**
 * An incremental answer's payloads, passed on as they come; the last one carries the plugins' extensions, measured
 * on the whole answer (`router/cost/incremental.ts`): a deferred fragment's fields cost what they would undeferred.
 * An answer the client leaves before its end is measured on what was delivered.
 */
export function streamedPhase(plugins: readonly RouterPlugin[], rc: RouterContext) {
  let whole: unknown;
  let measured = false;
  const measure = () => {
    measured = true;
    return responsePhase(plugins, rc.state, rc.opState, whole ?? null);
  };
  return {
    onNext({ result, setResult }: { result: unknown; setResult: (r: ExecutionResult) => void }) {
      const payload = result as IncrementalPayload & ExecutionResult;
      whole = foldIncremental(whole, payload);
      if (payload.hasNext !== false || measured) return;
      const out = measure();
      if (Object.keys(out.extensions).length > 0)
        setResult({ ...payload, extensions: { ...payload.extensions, ...out.extensions } });
    },
    onEnd() {
      if (!measured) measure();
    },
  };
}

/**
 * The runtime's answer to an incremental request, passed on as it comes with the router's headers (its framing
 * headers left to the HTTP server); `end` runs with its last payload. Null when the runtime answered at once.
 */
export function incrementalAnswer(
  res: Response,
  rc: RouterContext,
  end: () => void,
): { status: number; headers: Record<string, string>; stream: ReadableStream<Uint8Array> } | null {
  const type = res.headers.get('content-type')?.toLowerCase() ?? '';
  if (!res.body || (!type.startsWith('multipart/mixed') && !type.startsWith('text/event-stream')))
    return null;
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!FRAMING_HEADERS.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
  });
  Object.assign(headers, rc.headers);
  return { status: res.status, headers, stream: endingWith(res.body, end) };
}
