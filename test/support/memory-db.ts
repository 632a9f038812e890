/**
 * An empty in-memory store for tests, as `openDb({})` opens one (PGlite in memory, migrated, traced), but loaded from
 * the build's prepared store template (`src/store/template.ts`) instead of running initdb: about 1 s instead of 4.5–6 s
 * on a 2-core machine, paid by every test file that opens a store. The template holds every migration of the build;
 * `migrate` applies any added since, as it does for the product's first start from the template. `openDb({})` itself
 * stays covered by the store contract test (`test/store/pglite.test.ts`).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import type { Db } from '../../src/store/db.ts';
import { migrated } from '../../src/store/open.ts';
import { openPglite } from '../../src/store/pglite.ts';
import { STORE_TEMPLATE_DIR } from '../../src/store/template.ts';

/**
 * Dumps the template into `file`. PGlite writes into a data directory it opens, so it opens a copy: the template is
 * left as the build made it.
 */
export async function dumpStoreTemplate(file: string): Promise<void> {
  const copy = mkdtempSync(join(tmpdir(), 'cw-template-copy-'));
  try {
    cpSync(STORE_TEMPLATE_DIR, copy, { recursive: true });
    const pg = new PGlite({ dataDir: copy });
    await pg.waitReady;
    const tar = await pg.dumpDataDir('none');
    await pg.close();
    writeFileSync(file, Buffer.from(await tar.arrayBuffer()));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

let dumped: Promise<Blob> | undefined;

/**
 * The template's dump (a tar of its data directory): the one the unit global setup made for the run
 * (`store-template-global-setup.ts`), or, in a project without it, one made in this process, once.
 */
function templateDump(): Promise<Blob> {
  dumped ??= (async () => {
    // Outside vitest (the benchmarks open test markets too) there is no global setup to ask.
    const given = process.env.VITEST ? (inject('storeTemplateDump') as string | undefined) : undefined;
    if (given) return new Blob([readFileSync(given)]);
    const dir = mkdtempSync(join(tmpdir(), 'cw-template-dump-'));
    try {
      await dumpStoreTemplate(join(dir, 'template.tar'));
      return new Blob([readFileSync(join(dir, 'template.tar'))]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return dumped;
}

/** A new, empty in-memory store, migrated and traced: what `openDb({})` returns, without initdb. */
export async function openMemoryDb(): Promise<Db> {
  return migrated(await openPglite(undefined, await templateDump()));
}
