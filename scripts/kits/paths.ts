/** Where the kits' sources are and where the built packages go (docs/kit.md). */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const KIT_DIR = join(ROOT, 'src', 'kit');
export const TICKERS_FILE = join(KIT_DIR, 'tickers.ts');
export const DEFAULT_OUT_DIR = join(ROOT, 'dist', 'kits');
export const README_TEMPLATE = join(KIT_DIR, 'README.template.md');
export const MANIFEST = join(KIT_DIR, 'generated', 'persisted-documents.json');
export const BROWSER_BUNDLE = 'coinwallet-kit.browser.js';
/** The example dapp's source: the repository's example (`npm run example`) and the complete kit's `example/`. */
export const EXAMPLE_SOURCE_DIR = join(ROOT, 'examples', 'dapp');
/** The files of the example dapp, shipped in the complete kit under `example/`. */
export const EXAMPLE_FILES = ['index.html', 'app.js'] as const;
