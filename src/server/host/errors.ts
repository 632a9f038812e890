/**
 * The host's error catalog: the answers the HTTP host gives itself, before or around any route (no route for the
 * path, a body it cannot read, a request Node's HTTP parser refuses, a method it does not serve). Every one is our
 * `{ "error": { "code", "message" } }` body with a stable code (docs/operations.md, "Answers of the host").
 */
import { STATUS_CODES } from 'node:http';
import { errorCatalog } from '../../core/errors.ts';
import type { ApiError } from '../../core/errors.ts';

/** The methods some route of a host serves: what a 405 of the host names in `Allow`. */
export const SERVED_METHODS = 'GET, HEAD, POST, OPTIONS';

/** `n` bytes as the limits are stated: `1 MiB`, `16 KiB`, else bytes. */
export function sizeOf(n: number): string {
  if (n % 1_048_576 === 0) return `${n / 1_048_576} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

export const hostErrors = errorCatalog('host', {
  /** No route for this method and path. */
  notFound: {
    status: 404,
    code: 'NOT_FOUND',
    message: (method: string, path: string) =>
      `no endpoint ${method} ${path}: see the OpenAPI document for the paths served`,
  },
  payloadTooLarge: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: (limit: number) => `request body must be at most ${sizeOf(limit)}`,
  },
  unsupportedMediaType: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'request body must be application/json',
  },
  invalidJson: { status: 400, code: 'INVALID_JSON', message: 'request body must be a valid JSON document' },
  /** A route's schema refused the request (Fastify's validation; its message names the field and the rule). */
  invalidParameter: { status: 400, code: 'INVALID_PARAMETER', message: (detail: string) => detail },
  /** A path that is not valid percent-encoding, or a path parameter over its length. */
  badUrl: {
    status: 400,
    code: 'BAD_URL',
    message: (detail: string) => `the request path is not valid: ${detail}`,
  },
  /** An HTTP/1.1 request without a `Host` header (RFC 9112 §3.2: a server must answer it 400). */
  hostRequired: {
    status: 400,
    code: 'HOST_REQUIRED',
    message: 'an HTTP/1.1 request must carry a Host header naming this server, such as Host: api.example.com',
  },
  /** What Node's HTTP parser refused, in words: see {@link parserError}. */
  badHttpRequest: {
    status: 400,
    code: 'BAD_HTTP_REQUEST',
    message: (what: string) => `the request is not valid HTTP/1.1: ${what}`,
  },
  /** A method no route of this server serves (`CONNECT`, or a token Node's parser does not know). */
  methodNotAllowed: {
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    message: (method: string | null) =>
      `${method === null ? 'the request method is not one HTTP defines' : `the method ${method} is not served`}: this server answers ${SERVED_METHODS}`,
    headers: { allow: SERVED_METHODS },
  },
  /** A request whose method requires a body type (`QUERY`, RFC 10008 §2) sent none (Fastify checks it first). */
  contentTypeRequired: {
    status: 400,
    code: 'CONTENT_TYPE_REQUIRED',
    message: (method: string) =>
      `a ${method} request must name the type of its body in a Content-Type header, such as Content-Type: application/json`,
  },
  /** A body whose bytes are not as many as its `Content-Length` said. */
  contentLengthMismatch: {
    status: 400,
    code: 'CONTENT_LENGTH_MISMATCH',
    message: 'the request body must be exactly as long as its Content-Length header says',
  },
  /** `Expect` with anything but `100-continue` (RFC 9110 §10.1.1). */
  expectationFailed: {
    status: 417,
    code: 'EXPECTATION_FAILED',
    message:
      'the only expectation this server meets is Expect: 100-continue: send the request without the other',
  },
  /**
   * A client error the framework reports that no entry above names: Fastify's own message, so that it is a 400 with
   * our body rather than a code of the framework's.
   */
  badRequest: {
    status: 400,
    code: 'BAD_REQUEST',
    message: (detail: string) => `the request cannot be served: ${detail}`,
  },
  headersTooLarge: {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    message: (limit: number) => `the request line and headers must be at most ${sizeOf(limit)} in total`,
  },
  requestTimeout: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message:
      'the request headers and body must arrive in time: send the whole request at once, then wait for the answer',
  },
  internal: { status: 500, code: 'INTERNAL', message: 'internal error: it has been logged' },
});

/** Words for the errors of Node's HTTP parser (llhttp's `HPE_*` codes), naming what the request got wrong. */
const PARSER_ERRORS: Readonly<Record<string, string>> = {
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length must be sent once',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length must be one decimal number of bytes, sent once',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding must end with chunked',
  HPE_INVALID_CHUNK_SIZE: 'each chunk of a chunked body must start with its size in hexadecimal',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'the chunk extensions of a chunked body are too long',
  HPE_INVALID_HEADER_TOKEN:
    'header names must be tokens and header values visible characters (no NUL, no control character)',
  HPE_INVALID_URL: 'the request target must be a path such as /healthz',
  HPE_INVALID_VERSION: 'the request line must end with HTTP/1.1 (or HTTP/1.0) and CRLF',
  HPE_PAUSED_H2_UPGRADE: 'HTTP/2 with prior knowledge is not served: use HTTP/1.1',
  HPE_LF_EXPECTED: 'each line must end with CRLF',
  HPE_CR_EXPECTED: 'each line must end with CRLF',
  HPE_INVALID_CONSTANT: 'the request line must be METHOD /path HTTP/1.1',
  HPE_INVALID_EOF_STATE: 'the request ended before its headers or body were complete',
};

/** Both framings of a body: llhttp names it under either header's code. */
const BOTH_FRAMINGS =
  /Content-Length can't be present with Transfer-Encoding|Transfer-Encoding can't be present with Content-Length/;

/**
 * The answer to a request Node's HTTP parser refused: its error's `code` in our words, followed by the parser's own
 * `reason` when it gives one; `maxHeaderSize` is the limit a 431 states.
 */
export function parserError(
  code: string | undefined,
  reason: string | undefined,
  maxHeaderSize: number,
): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return hostErrors.headersTooLarge(maxHeaderSize);
  if (code === 'HPE_INVALID_METHOD') return hostErrors.methodNotAllowed(null);
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return hostErrors.requestTimeout();
  const what =
    reason && BOTH_FRAMINGS.test(reason)
      ? 'a request must not carry both Content-Length and Transfer-Encoding: send one of them'
      : ((code && PARSER_ERRORS[code]) ?? 'the request line or a header is malformed');
  return hostErrors.badHttpRequest(reason ? `${what} (the parser: ${reason})` : what);
}

/** A whole HTTP/1.1 answer with our error body, for a socket no Fastify reply exists for; the connection closes. */
export function rawAnswer(e: ApiError, extraHeaders: Readonly<Record<string, string>> = {}): string {
  const body = JSON.stringify(e.toBody());
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-content-type-options': 'nosniff',
    ...e.headers,
    ...extraHeaders,
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}
