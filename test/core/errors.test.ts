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

describe('ApiError.within', () => {
  it('heads the message and its graph form with where the part is, and keeps the rest', () => {
    const e = new ApiError(400, 'INVALID_BODY', 'name must be a string', { 'x-a': '1' }, 'name: a string', {
      field: 'name',
    });
    const inner = e.within('names[2].');
    expect(inner).toBeInstanceOf(ApiError);
    expect([inner.status, inner.code, inner.message, inner.graphMessage]).toEqual([
      400,
      'INVALID_BODY',
      'names[2].name must be a string',
      'names[2].name: a string',
    ]);
    expect(inner.headers).toEqual({ 'x-a': '1' });
    expect(inner.extensions).toEqual({ field: 'name' });
    expect(new ApiError(400, 'X', 'm').within('a.').graphMessage).toBeUndefined();
    expect(e.message).toBe('name must be a string');
  });
});
