/**
 * A built kit package (`dist/kits/<dir>/`, written by `npm run build:kits`) as the tarball `npm pack` would make of it:
 * the files its package.json's `files` names, plus package.json itself, each under `package/`, in a deterministic
 * gzip'd ustar archive (src/server/browser/tar.ts). Packed on first request and kept while the package's
 * package.json is the same file (the build writes it last, after every other file of the package).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { strongEtag } from '../../core/conditional.ts';
import type { TarEntry } from './tar.ts';
import { tgz } from './tar.ts';

/** A packed kit: the `.tgz` bytes and their strong ETag. */
export interface KitTarball {
  body: Buffer;
  etag: string;
}

/** Whether the package-relative `path` is shipped: package.json, README/LICENSE, or under an entry of `files`. */
function shipped(path: string, files: readonly string[]): boolean {
  if (path === 'package.json' || /^(README|LICENSE|LICENCE)(\.[^/]*)?$/i.test(path)) return true;
  return files.some((f) => {
    const entry = f.replace(/^\.\//, '').replace(/\/+$/, '');
    return path === entry || path.startsWith(`${entry}/`);
  });
}

/** Every regular file under `dir`, as `/`-separated paths relative to it (symbolic links are not followed). */
function walk(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...walk(dir, path));
    else if (d.isFile()) out.push(path);
  }
  return out;
}

/** Packs the package directory `dir` (which must hold a package.json). */
export function packKit(dir: string): KitTarball {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { files?: unknown };
  const files = Array.isArray(pkg.files) ? pkg.files.filter((f): f is string => typeof f === 'string') : null;
  const entries: TarEntry[] = walk(dir)
    .filter((p) => files === null || shipped(p, files))
    .map((p) => ({ path: `package/${p}`, body: readFileSync(join(dir, p)) }));
  const body = tgz(entries);
  return { body, etag: strongEtag(body) };
}

/** The tarballs of the packages under one build directory, each packed once per build of its package. */
export class KitTarballs {
  private readonly packed = new Map<string, { stamp: string; tarball: KitTarball }>();

  /** @param root the build's output directory, holding one directory per package (`kit/`, `kit-ltc/`, …). */
  constructor(private readonly root: string) {}

  /** The tarball of package directory `dir`; null when it is not built (no package.json). */
  get(dir: string): KitTarball | null {
    const pkgDir = join(this.root, dir);
    let st: Stats;
    try {
      st = statSync(join(pkgDir, 'package.json'));
    } catch {
      this.packed.delete(dir);
      return null;
    }
    const stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
    const hit = this.packed.get(dir);
    if (hit?.stamp === stamp) return hit.tarball;
    const tarball = packKit(pkgDir);
    this.packed.set(dir, { stamp, tarball });
    return tarball;
  }
}
