/**
 * Builds the product's web pages (`/portal`, `/admin`) and widgets (`/widgets/mining-calculator.js`) from
 * `src/web/**` with esbuild: Preact + TSX, one self-contained IIFE per entry, no CDN and no build step before
 * `npm start` (each bundle is built on first request and cached for the life of the process).
 * Node-side code: the browser modules never import this file.
 */
import { projectPath } from '../../core/project-root.ts';

/** Bundled entry points, by public name. */
export const WEB_ENTRIES = {
  portal: 'pages/portal/main.tsx',
  admin: 'pages/admin/main.tsx',
  'mining-calculator': 'widgets/mining-calculator.tsx',
} as const;
export type WebEntry = keyof typeof WEB_ENTRIES;

const cache = new Map<WebEntry, Promise<string>>();

export async function bundleWebEntry(name: WebEntry, opts: { minify?: boolean } = {}): Promise<string> {
  const { build } = await import('esbuild'); // the bundler is loaded on the first request for a bundle
  const r = await build({
    entryPoints: [projectPath('src', 'web', WEB_ENTRIES[name])],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    minify: opts.minify ?? true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const out = r.outputFiles[0];
  if (!out) throw new Error(`esbuild produced no output for ${name}`);
  return out.text;
}

/** The bundle of `name`, built once per process (a failed build is retried on the next call). */
export function webBundle(name: WebEntry): Promise<string> {
  let p = cache.get(name);
  if (!p) {
    p = bundleWebEntry(name);
    cache.set(name, p);
    p.catch(() => cache.delete(name));
  }
  return p;
}
