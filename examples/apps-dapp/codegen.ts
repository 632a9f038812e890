/**
 * The dapp's codegen: graphql-codegen's client preset over the router's API schema (`schema/api.graphql`) and this
 * folder's `operations/*.graphql`, with `persistedDocuments` (SHA-256 ids). `npm run example:apps` runs it through
 * `build.ts`; the e2e (`test/e2e/apps-clients.e2e.ts`) runs the same configuration into a directory of its own.
 *
 * - `mode: 'replaceDocumentWithHash'` (the default here, what the page bundles): each generated document is its id
 *   alone, so no query text reaches the browser; the page sends `{ documentId, variables }`.
 * - `mode: 'embedHashInDocument'` (the preset's default): full documents carrying their id in `__meta__.hash`, what
 *   Apollo Client's persisted-queries link and urql's persisted exchange read. The ids are the same in both modes.
 * - `addTypenameSelectionDocumentTransform`: `__typename` in every selection, as the preset's documentation asks for
 *   normalized caches (Apollo's InMemoryCache, urql's Graphcache): the router runs the published body, not the
 *   client's own copy, so the body must carry what the cache needs.
 */
import { join } from 'node:path';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { addTypenameSelectionDocumentTransform } from '@graphql-codegen/client-preset';

const HERE = import.meta.dirname;
const ROOT = join(HERE, '..', '..');

/** Where `build.ts` writes the generated client (committed, as `clients/graph/generated/` is). */
export const GENERATED_DIR = join(HERE, 'generated');

export type DocumentMode = 'replaceDocumentWithHash' | 'embedHashInDocument';

/** The configuration for `generate()`: output into `outDir` (default {@link GENERATED_DIR}) in document `mode`. */
export function dappCodegen(
  outDir: string = GENERATED_DIR,
  mode: DocumentMode = 'replaceDocumentWithHash',
): CodegenConfig {
  return {
    overwrite: true,
    silent: true,
    generates: {
      [`${outDir}/`]: {
        schema: join(ROOT, 'schema', 'api.graphql'),
        documents: join(HERE, 'operations', '*.graphql'),
        preset: 'client',
        presetConfig: {
          fragmentMasking: false,
          persistedDocuments: { hashAlgorithm: 'sha256', mode },
        },
        documentTransforms: [addTypenameSelectionDocumentTransform],
        config: {
          enumsAsTypes: true,
          useTypeImports: true,
          importExtension: '.ts',
          scalars: { DateTime: 'string' },
        },
      },
    },
  };
}
