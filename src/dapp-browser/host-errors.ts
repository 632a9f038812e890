/**
 * The host core's refusals: a `HostError` carries the provider error body (docs/provider.md §5) that `request` and
 * `decide` answer as `{ error }`; anything else thrown becomes -32603 `INTERNAL_ERROR`.
 */
import type { ErrorReason, RpcErrorBody } from '../provider/protocol.ts';
import { ERROR_CODES, rpcError } from '../provider/protocol.ts';
import { PlatformError } from './platform.ts';

export class HostError extends Error {
  constructor(readonly body: RpcErrorBody) {
    super(body.message);
  }
}

export const err = (
  code: (typeof ERROR_CODES)[keyof typeof ERROR_CODES],
  reason: ErrorReason,
  message: string,
  extra = {},
) => new HostError(rpcError(code, reason, message, extra));

export const invalid = (reason: ErrorReason, message: string, extra = {}) =>
  err(ERROR_CODES.invalidParams, reason, message, extra);

/** A call to the platform; its failure is -32603 `PLATFORM_UNAVAILABLE`. */
export async function fromPlatform<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof PlatformError) throw err(ERROR_CODES.internal, 'PLATFORM_UNAVAILABLE', e.message);
    throw e;
  }
}

/** The error body answered for anything thrown while handling a request or running an approved prompt. */
export function toBody(e: unknown): RpcErrorBody {
  if (e instanceof HostError) return e.body;
  return rpcError(
    ERROR_CODES.internal,
    'INTERNAL_ERROR',
    `the wallet failed: ${e instanceof Error ? e.message : String(e)}`,
  );
}
