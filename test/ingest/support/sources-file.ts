/**
 * Shared by the sources-file tests (`test/ingest/sources-file*.test.ts`): where the fixtures live and the path the
 * error cases pretend their file has.
 */
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'sources');
export const COMPLETE = join(FIXTURES, 'complete.json');
/** Where the error cases pretend their file lives: every message starts with it. */
export const P = '/etc/coinwallet/sources.json';
