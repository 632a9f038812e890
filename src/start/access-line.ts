/**
 * The access line every process writes per request at `info`, which its metrics and server span read too: request
 * id, method, route (the route's pattern, or the path without its query: never a key), status, duration, the caller's
 * plan and key (its id's first 8 characters), the refusal's code and, for the graph, the operation's name and cost.
 */
import type { FastifyRequest } from 'fastify';
import { jsonString } from '../core/log.ts';
import { requestNotesOf } from '../core/request-notes.ts';
import type { AnsweredRequest } from './metrics.ts';

/**
 * One access line: what {@link AnsweredRequest} says, and the request's id, the key's and its URL (the line's route
 * when no route's pattern matched: the path, without its query). Held until its batch is written: never changed once
 * made.
 */
export interface AccessLine extends AnsweredRequest {
  reqId: string;
  key: string | undefined;
  url: string;
}

/**
 * The line of `req`, answered by `reply`: the operation's name from the request, plan and cost from what the response
 * says (`x-api-plan`, `x-query-cost`). Every field is present (undefined when it does not apply): one object shape for
 * every line.
 */
export function accessLine(
  req: FastifyRequest,
  pattern: string | undefined,
  reply: { statusCode: number; elapsedTime: number; getHeader(name: string): unknown },
): AccessLine {
  const body = req.body as { operationName?: unknown } | undefined;
  const query = req.query as { operationName?: unknown } | undefined;
  const operation = body?.operationName ?? query?.operationName;
  const cost = reply.getHeader('x-query-cost');
  const { keyId, refusal } = requestNotesOf(req.raw);
  return {
    reqId: req.id,
    method: req.method,
    route: pattern,
    url: req.url,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    plan: reply.getHeader('x-api-plan'),
    key: keyId?.slice(0, 8),
    refused: refusal,
    operation: typeof operation === 'string' ? operation : undefined,
    cost: cost === undefined ? undefined : Number(cost),
  };
}

/**
 * The line's fields as pino writes them (`,"reqId":"…","method":…`; undefined ones left out, a cost that is not a
 * number written `null`), written by hand: the generic way (a loop over the object's keys) cost twice as much.
 */
export function accessLineFields(l: AccessLine): string {
  // The id is valid or made here (letters, digits, `._:-`), the method an HTTP token (Node checks): neither needs escaping.
  let s = `,"reqId":"${l.reqId}","method":"${l.method}","route":${jsonString(routeOf(l))}`;
  s += `,"status":${l.status},"ms":${number(l.ms)}`;
  if (l.plan !== undefined)
    s += `,"plan":${typeof l.plan === 'string' ? jsonString(l.plan) : JSON.stringify(l.plan)}`;
  if (l.key !== undefined) s += `,"key":${jsonString(l.key)}`;
  if (l.refused !== undefined) s += `,"refused":${jsonString(l.refused)}`;
  if (l.operation !== undefined) s += `,"operation":${jsonString(l.operation)}`;
  if (l.cost !== undefined) s += `,"cost":${number(l.cost)}`;
  return s;
}

/** The line's route: the pattern that matched, else the path without its query (never a key). */
export const routeOf = (l: Pick<AccessLine, 'route' | 'url'>): string =>
  l.route ?? (l.url.split('?')[0] as string);

const number = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');
