/**
 * Request ids: each request's id is its `x-request-id` when valid, else a new UUID, and every answer carries it back
 * (`every-response.ts`); the access line and the logs of the request carry it too.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** An `x-request-id` a client may choose: 1 to 128 letters, digits and `._:-` (anything else is replaced). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id (Fastify's `genReqId`), written back to the request's headers so that the router forwards it to
 * the subgraphs (their access lines then carry the same id).
 */
export function requestId(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  raw.headers['x-request-id'] = id;
  return id;
}
