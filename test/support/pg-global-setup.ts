import type { TestProject } from 'vitest/node';
import { startTempPostgres } from './postgres.ts';

/**
 * e2e global setup: provides `TEST_DATABASE_URL` — the given one, or a throwaway cluster started for this run.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('databaseUrl', given);
    return () => undefined;
  }
  const pg = await startTempPostgres();
  project.provide('databaseUrl', pg.url);
  return () => pg.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
