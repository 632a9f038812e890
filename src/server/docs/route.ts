/**
 * `GET /docs/<file>.md`: the repository's documentation pages (src/server/docs/pages.ts), as they are, as
 * `text/markdown; charset=utf-8`; and, when the graph is served, `GET /graphql/schema.graphql`: the graph's public
 * schema (`schema/api.graphql`, the SDL the router serves and client code generators read) as `text/plain`.
 * Neither is rendered: a browser shows the text, and runs nothing of it (`sandbox`).
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { sendEtagged } from '../etagged.ts';
import { serverErrors } from '../errors.ts';
import { DOC_PAGES, docFile, GRAPH_SCHEMA_FILE, GRAPH_SCHEMA_PATH } from './pages.ts';

export interface DocsRoutesOptions {
  /** Serve the graph's schema at `/graphql/schema.graphql` (the graph is mounted); default false. */
  graphSchema?: boolean;
}

/** A text file is shown, never run: no script, no load, no form, even when opened directly. */
const TEXT_CSP = "default-src 'none'; sandbox";

export async function docsRoutes(app: FastifyInstance, opts: DocsRoutesOptions = {}): Promise<void> {
  const pages = new Map(DOC_PAGES.map((p) => [p.file, docFile(p.file)]));
  app.get<{ Params: { file: string } }>('/docs/:file', async (req, reply) => {
    const path = pages.get(req.params.file);
    if (!path) throw serverErrors.noSuchDoc(req.params.file);
    void reply.header('content-security-policy', TEXT_CSP);
    return sendEtagged(req, reply, await readFile(path), 'text/markdown; charset=utf-8');
  });
  if (opts.graphSchema)
    app.get(GRAPH_SCHEMA_PATH, async (req, reply) => {
      void reply.header('content-security-policy', TEXT_CSP);
      return sendEtagged(req, reply, await readFile(GRAPH_SCHEMA_FILE), 'text/plain; charset=utf-8');
    });
}
