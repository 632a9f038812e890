/**
 * `GET /kits/<dir>.tgz`: each kit package as an npm tarball (`/kits/kit.tgz`, `/kits/kit-ltc.tgz`, … 20 in all), so
 * that `npm install http://<host>:<port>/kits/kit.tgz` installs the kit from the product itself, without the
 * registry (the kits have no dependencies). The packages are the build's (`npm run build:kits` → `dist/kits/<dir>/`);
 * one that is not built answers 404 `KITS_NOT_BUILT` saying so.
 */
import type { FastifyInstance } from 'fastify';
import { notModified } from '../../core/conditional.ts';
import { projectPath } from '../../core/project-root.ts';
import { serverErrors } from '../errors.ts';
import { kitPackages } from './kit-packages.ts';
import { KitTarballs } from './kit-tarball.ts';

/** Where `npm run build:kits` writes the packages by default. */
export const DEFAULT_KITS_DIR = projectPath('dist', 'kits');

export interface KitRoutesOptions {
  /** The build's output directory (one directory per package); default `dist/kits` of the project. */
  kitsDir?: string | undefined;
}

export async function kitRoutes(app: FastifyInstance, opts: KitRoutesOptions = {}): Promise<void> {
  const tarballs = new KitTarballs(opts.kitsDir ?? DEFAULT_KITS_DIR);
  const dirs = new Set(kitPackages().map((p) => p.dir));
  app.get<{ Params: { file: string } }>('/kits/:file', async (req, reply) => {
    const file = req.params.file;
    const dir = file.endsWith('.tgz') ? file.slice(0, -'.tgz'.length) : '';
    if (!dirs.has(dir)) throw serverErrors.noSuchKit(file);
    const t = tarballs.get(dir);
    if (!t) throw serverErrors.kitsNotBuilt(file);
    // A rebuild changes the bytes: always revalidated, answered 304 while they are the same.
    return (
      notModified(req, reply, { etag: t.etag, cacheControl: 'no-cache' }) ??
      reply
        .header('content-disposition', `attachment; filename="coinwallet-${dir}.tgz"`)
        .type('application/gzip')
        .send(t.body)
    );
  });
}
