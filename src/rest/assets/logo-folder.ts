/**
 * The operator's logo folder (`COIN_IMAGES_DIR`): `<id>.svg` or `<id>.png` files that replace a coin's generated
 * badge. Files are looked up per request with one `stat` and re-read only when their modification time, size or
 * inode changed, so a logo dropped in, replaced or removed shows on the next request without a restart.
 */
import { statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { strongEtag } from '../../core/conditional.ts';

/** A logo as served: its bytes, content type and strong ETag (a hash of the bytes). */
export interface Logo {
  body: Buffer;
  type: string;
  etag: string;
}

/** File types looked up, in order of precedence: an `<id>.svg` wins over an `<id>.png`. */
export const LOGO_TYPES = [
  { ext: 'svg', type: 'image/svg+xml' },
  { ext: 'png', type: 'image/png' },
] as const;

/** Larger files are ignored (with a warning): a logo is a few kilobytes, and every byte is held in memory. */
export const MAX_LOGO_BYTES = 1_048_576;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Whether `body` looks like a file of type `ext`: the PNG signature, or an `<svg` element in an SVG file. */
export function looksLike(ext: 'svg' | 'png', body: Buffer): boolean {
  if (ext === 'png') return body.subarray(0, 8).equals(PNG_SIGNATURE);
  return /<svg[\s>]/.test(body.subarray(0, 4096).toString('utf8'));
}

interface Cached {
  /** `mtimeMs:size:ino` of the file when read. */
  version: string;
  /** The logo, or null when the file was refused (too large, wrong content): not read again until it changes. */
  logo: Logo | null;
}

export class LogoFolder {
  private readonly cache = new Map<string, Cached>();

  /**
   * @param dir an existing directory (checked here, so a wrong `COIN_IMAGES_DIR` stops start-up with its name).
   * @param warn where refused or unreadable files are reported; once per file version.
   */
  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new Error(`COIN_IMAGES_DIR: ${dir} is not a directory`);
  }

  /**
   * The operator's logo of `id`, or null. `id` must already be a catalog coin id (the caller checks it): it is
   * the whole file name stem, so it cannot name a file outside the folder. A file that cannot be read is a miss,
   * never a failed request.
   */
  async get(id: string): Promise<Logo | null> {
    for (const { ext, type } of LOGO_TYPES) {
      const path = join(this.dir, `${id}.${ext}`);
      const logo = await this.read(path, ext, type);
      if (logo) return logo;
    }
    return null;
  }

  private async read(path: string, ext: 'svg' | 'png', type: string): Promise<Logo | null> {
    let version: string;
    let size: number;
    try {
      const s = await stat(path);
      if (!s.isFile()) return null;
      version = `${s.mtimeMs}:${s.size}:${s.ino}`;
      size = s.size;
    } catch (err) {
      this.cache.delete(path);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.warn(`${path}: ${(err as Error).message}`);
      return null;
    }
    const hit = this.cache.get(path);
    if (hit?.version === version) return hit.logo;
    let logo: Logo | null = null;
    if (size > MAX_LOGO_BYTES) this.warn(`${path}: larger than ${MAX_LOGO_BYTES} bytes, ignored`);
    else {
      try {
        const body = await readFile(path);
        if (looksLike(ext, body)) logo = { body, type, etag: strongEtag(body) };
        else this.warn(`${path}: not ${ext === 'png' ? 'a PNG image' : 'an SVG document'}, ignored`);
      } catch (err) {
        this.warn(`${path}: ${(err as Error).message}`);
        return null;
      }
    }
    this.cache.set(path, { version, logo });
    return logo;
  }
}
