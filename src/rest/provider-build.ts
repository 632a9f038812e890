/**
 * Builds `/provider.js`: `src/provider/index.ts` bundled by esbuild into one IIFE with the trusted wallet host origins
 * and the identity origin baked in. Node-side code (the browser modules never import this file). Builds are cached
 * per configuration, so serving the script costs one build per process.
 */
import { projectPath } from '../core/project-root.ts';
import type { ProviderConfig } from '../provider/provider.ts';

/** Version reported by the script (diagnostics); bump with protocol-visible changes. */
export const PROVIDER_SCRIPT_VERSION = '1.0.0';

export interface ProviderBuildOptions {
  /** Wallet host origins trusted for the frame handshake (`WALLET_HOST_ORIGINS`); loopback is always trusted. */
  hostOrigins: readonly string[];
  /** The only origin allowed to call `id_connect`; null/absent: the origin the script is loaded from. */
  identityOrigin?: string | null | undefined;
  /** Default true. */
  minify?: boolean;
}

const ENTRY = projectPath('src', 'provider', 'index.ts');
const cache = new Map<string, Promise<string>>();

/** Bundles a browser entry point into one self-contained IIFE (ES2020, no imports left). */
export async function bundleBrowserScript(
  entry: string,
  o: { define?: Record<string, string>; minify?: boolean; banner?: string } = {},
): Promise<string> {
  const { build } = await import('esbuild'); // the bundler is loaded on the first request for a bundle
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    write: false,
    minify: o.minify ?? true,
    legalComments: 'none',
    logLevel: 'silent',
    ...(o.define ? { define: o.define } : {}),
    ...(o.banner ? { banner: { js: o.banner } } : {}),
  });
  const out = r.outputFiles[0];
  if (!out) throw new Error(`esbuild produced no output for ${entry}`);
  return out.text;
}

function checkOrigin(o: string, what: string): string {
  let u: URL;
  try {
    u = new URL(o);
  } catch {
    throw new Error(`${what}: ${JSON.stringify(o)} is not an origin such as https://wallet.example.com`);
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== o) {
    throw new Error(`${what}: ${JSON.stringify(o)} is not an origin such as https://wallet.example.com`);
  }
  return o;
}

/** The provider script for this configuration (cached: one esbuild run per distinct configuration). */
export function buildProvider(opts: ProviderBuildOptions): Promise<string> {
  const config: ProviderConfig = {
    hostOrigins: opts.hostOrigins.map((o) => checkOrigin(o, 'hostOrigins')),
    identityOrigin: opts.identityOrigin ? checkOrigin(opts.identityOrigin, 'identityOrigin') : null,
    version: PROVIDER_SCRIPT_VERSION,
  };
  const minify = opts.minify ?? true;
  const key = JSON.stringify([config, minify]);
  let p = cache.get(key);
  if (!p) {
    p = bundleBrowserScript(ENTRY, {
      define: { __CW_PROVIDER_CONFIG__: JSON.stringify(config) },
      minify,
      banner: `/* Coin Wallet provider ${PROVIDER_SCRIPT_VERSION} (protocol 1): see docs/provider.md */`,
    });
    cache.set(key, p);
    p.catch(() => cache.delete(key)); // a failed build is retried on the next call
  }
  return p;
}
