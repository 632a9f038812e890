import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpStoreTemplate } from './memory-db.ts';

/**
 * Unit global setup, after the build's (which makes the store template when it is missing): dumps the template once
 * for the run, so that each in-memory store a test opens (`memory-db.ts`) loads it instead of running initdb.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'cw-template-dump-'));
  const file = join(dir, 'template.tar');
  await dumpStoreTemplate(file);
  project.provide('storeTemplateDump', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    storeTemplateDump: string;
  }
}
