/**
 * `docs/error-codes.md` is what `scripts/error-codes.ts` writes from the error catalogs (like the codegen check):
 * a catalog changed without the page fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogEntries, errorCatalog } from '../../src/core/errors.ts';
import {
  CATALOGS,
  ERROR_CODES_FILE,
  errorCodesPage,
  parameterNames,
  templateOf,
} from '../../scripts/error-codes.ts';

describe('docs/error-codes.md', () => {
  it('is what scripts/error-codes.ts generates (run it after changing a catalog)', async () => {
    expect(readFileSync(ERROR_CODES_FILE, 'utf8')).toBe(await errorCodesPage());
  }, 30_000);

  it('lists every entry of every catalog, and differs when a catalog gains one', async () => {
    const page = readFileSync(ERROR_CODES_FILE, 'utf8');
    const entries = CATALOGS.flatMap((c) => catalogEntries(c));
    expect(entries.length).toBeGreaterThan(50);
    for (const e of entries) expect(page, `${e.area}.${e.name}`).toContain(`\`${e.code}\``);
    const more = errorCatalog('extra', { gone: { status: 410, code: 'GONE_FOR_GOOD', message: 'gone' } });
    expect(await errorCodesPage([...CATALOGS, more])).not.toBe(page);
  }, 30_000);

  it('shows each argument of a message by its parameter name', () => {
    expect(parameterNames((id: string, n = 3) => `${id}${n}`)).toEqual(['id', 'n']);
    expect(parameterNames(() => 'x')).toEqual([]);
    const c = errorCatalog('t', {
      a: {
        status: 400,
        code: 'A',
        message: (field: string, known: readonly string[]) => `${field} is not one of ${known.join(', ')}`,
      },
    });
    const [entry] = catalogEntries(c);
    expect(entry && templateOf(entry)).toBe('‹field› is not one of ‹known›');
  });
});
