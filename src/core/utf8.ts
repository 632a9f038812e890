/**
 * Request bodies are UTF-8 text (JSON is, RFC 8259 §8.1): a body with bytes that are not UTF-8 is refused, never
 * decoded with U+FFFD in their place and then stored as if the client had sent that. Every transport that reads a
 * JSON body as text goes through {@link utf8Body} (`src/server/json-body.ts`, the router's and the subgraphs' text
 * bodies, the partner routes).
 */
import { isUtf8 } from 'node:buffer';
import { coreErrors } from './errors.ts';

/** 400 `INVALID_JSON`: the body is not UTF-8. */
export const notUtf8 = coreErrors.notUtf8;

/** The body as text; throws {@link notUtf8} when its bytes are not UTF-8. */
export function utf8Body(body: Buffer): string {
  if (!isUtf8(body)) throw notUtf8();
  return body.toString('utf8');
}
