/**
 * What a request opening a stream must look like before its operation is read: GraphQL over HTTP's parameters, as
 * the engine checks a plain request and in its words. A POST is an `application/json` JSON object whose `query` and
 * `operationName` are strings and whose `variables` and `extensions` are objects, when present; a GET's `variables`
 * and `extensions` parameters are JSON-encoded objects. Without it a stream would open with a parameter silently
 * dropped (a subscription without its variables, an operation name ignored). A WebSocket's payloads arrive as
 * objects graphql-ws has checked, and pass.
 */
import type { ApiError } from '../../src/core/errors.ts';
import { routerErrors } from '../errors.ts';
import type { RouterRequest } from '../http-phase.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The request's `Content-Type` without its parameters, lowercase. */
function mediaType(req: RouterRequest): string {
  const h = req.headers['content-type'];
  return (Array.isArray(h) ? h[0] : h)?.split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A JSON-encoded search parameter: undefined when absent, null when it is no JSON object. */
function searchObject(search: string, name: string): Record<string, unknown> | null | undefined {
  const v = new URLSearchParams(search).get(name);
  if (v === null || v === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The refusal of a request whose parameters have the wrong shape; null when they are right (a batch is not looked at). */
export function shapeError(req: RouterRequest): ApiError | null {
  if (req.method.toUpperCase() === 'GET') {
    for (const name of ['variables', 'extensions'])
      if (searchObject(req.search, name) === null)
        return routerErrors.wrongParameter(name, 'an object', 'search');
    return null;
  }
  if (Array.isArray(req.body)) return null;
  if (mediaType(req) !== 'application/json' || !isObject(req.body)) return routerErrors.notARequestObject();
  const body = req.body;
  for (const name of ['query', 'operationName'])
    if (body[name] != null && typeof body[name] !== 'string')
      return routerErrors.wrongParameter(name, 'a string', 'body');
  for (const name of ['variables', 'extensions'])
    if (body[name] != null && !isObject(body[name]))
      return routerErrors.wrongParameter(name, 'an object', 'body');
  return null;
}

/** A GET's variables (`?variables=` as JSON), which the router's reading of a GET leaves to the engine. */
export const searchVariables = (search: string): Record<string, unknown> | undefined =>
  searchObject(search, 'variables') ?? undefined;
