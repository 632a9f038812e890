/**
 * Where the project's files are (`package.json`, `schema/`, `config/`, migrations, browser sources): the nearest
 * folder above this module that holds a `package.json`. The same answer whether the code runs from its sources
 * (tests, scripts) or from the compiled `dist/`, whose modules sit at another depth: files outside the module graph
 * are found through this, never through a path relative to `import.meta.url`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The project's root folder. */
export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project, e.g. `projectPath('schema', 'markets.graphql')`. */
export const projectPath = (...parts: string[]): string => join(PROJECT_ROOT, ...parts);
