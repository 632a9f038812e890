/** `ApiError` (`src/core/errors.ts`): an answer to the client, made without capturing a stack. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.ts';

describe('ApiError', () => {
  it('captures no stack, and leaves the limit of other errors as it was', () => {
    const limit = Error.stackTraceLimit;
    const e = new ApiError(429, 'RATE_LIMITED', 'slow down', { 'retry-after': '3' });
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toBe('slow down');
    expect(e.stack ?? '').not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('a fault').stack).toMatch(/\n\s+at /);
    expect(e.toBody()).toEqual({ error: { code: 'RATE_LIMITED', message: 'slow down' } });
  });
});
