import { existsSync } from 'node:fs';
import { buildProduct, serverBuildCurrent } from '../../scripts/build.ts';
import { STORE_TEMPLATE_DIR } from '../../src/store/template.ts';
import { projectPath } from '../../src/core/project-root.ts';

/**
 * Before any test: the compiled product that tests start as processes (`bin/coinwallet.js` runs `dist/`) is built from
 * the sources as they are now, so that no test runs a stale build (a build that is current is kept: another test run
 * may be using it). The store template and the kits, slower to build and changed rarely, are built only when missing
 * (`npm ci` built them).
 */
export default async function setup(): Promise<void> {
  await buildProduct([
    ...(serverBuildCurrent() ? [] : (['server'] as const)),
    ...(existsSync(STORE_TEMPLATE_DIR) ? [] : (['store'] as const)),
    ...(existsSync(projectPath('dist', 'kits', 'kit', 'package.json')) ? [] : (['kits'] as const)),
  ]);
}
