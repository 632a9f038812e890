/**
 * `/mcp`: the graph's MCP server over the Streamable HTTP transport (`@modelcontextprotocol/sdk`, stateless: a
 * server per POST, JSON answers, no session), on every process that serves the graph. The caller is the API key of
 * the request (`x-sp-api-key`, or `Authorization: Bearer <key>`), identified before anything is read as the graph
 * does it (`Router.refuseEarly`: 400/401, or 429 while its budget is spent); each tool call then runs through
 * `Router.handle` as that caller, so it counts as one of its requests and is charged its cost. GET (a stream of
 * server notifications) and DELETE (ending a session) are 405: a stateless server has neither.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildSchema } from 'graphql';
import type { KeyPolicy } from '../../src/accounts/app-policy.ts';
import { bearerToken } from '../../src/core/bearer.ts';
import { projectPath } from '../../src/core/project-root.ts';
import { noteRequest } from '../../src/core/request-notes.ts';
import { readCostDirectives } from '../cost/directives.ts';
import { routerErrors } from '../errors.ts';
import { routerRequest } from '../fastify-request.ts';
import { refusal } from '../http-phase.ts';
import type { Router } from '../index.ts';
import { supergraphDocument } from '../supergraph.ts';
import type { McpCatalog } from './session.ts';
import { documentTools, operationTools } from './tools.ts';
import type { OperationTool } from './tools.ts';

/** The operations of `clients/graph/operations/` offered as tools to every caller. */
export const CURATED_OPERATIONS: readonly string[] = [
  'Prices',
  'Markets',
  'Coin',
  'CoinChart',
  'Ohlc',
  'Search',
  'Trending',
  'Global',
  'ResolveName',
  'ReverseName',
  'ProofOfReserves',
];

const OPERATION_FILES = ['markets', 'names', 'bridge', 'account'];

/** The tools, schema and resources: read once, at the first MCP request (not at start-up). */
function loadCatalog(): McpCatalog {
  const read = (...p: string[]): string => readFileSync(projectPath(...p), 'utf8');
  const api = read('schema', 'api.graphql');
  const schema = buildSchema(api);
  const operations = OPERATION_FILES.map((f) => read('clients', 'graph', 'operations', `${f}.graphql`)).join(
    '\n',
  );
  const doc = (uri: string, name: string, description: string, mimeType: string, text: string) => ({
    uri,
    name,
    description,
    mimeType,
    text,
  });
  return {
    version: (JSON.parse(read('package.json')) as { version: string }).version,
    tools: operationTools(schema, operations, CURATED_OPERATIONS),
    schema,
    costs: readCostDirectives(supergraphDocument()),
    resources: [
      doc(
        'coinwallet://schema/api.graphql',
        'API schema',
        'The graph API schema (SDL) the tools run against.',
        'application/graphql',
        api,
      ),
      doc(
        'coinwallet://docs/methodology.md',
        'Methodology',
        'How prices, confidence and market caps are computed, and when a figure is null.',
        'text/markdown',
        read('docs', 'methodology.md'),
      ),
      doc(
        'coinwallet://docs/plans-and-limits.md',
        'Plans and limits',
        'Request and cost budgets per plan, the cost model, and what a refusal looks like.',
        'text/markdown',
        read('docs', 'plans-and-limits.md'),
      ),
    ],
  };
}

/**
 * The MCP SDK (with zod, about 400 KB of modules) and the catalog, loaded at the first MCP request: a process that
 * serves no agent never evaluates them, and start-up does not wait for them.
 */
async function loadMcp() {
  const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    import('./session.ts'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]);
  return { createMcpServer, Transport: WebStandardStreamableHTTPServerTransport, catalog: loadCatalog() };
}

let mcp: ReturnType<typeof loadMcp> | undefined;

/** The tools of an app's active documents, made once per policy read (a policy is re-read every few seconds). */
const appToolsOf = new WeakMap<KeyPolicy, readonly OperationTool[]>();
function appTools(c: McpCatalog, policy: KeyPolicy): readonly OperationTool[] {
  let tools = appToolsOf.get(policy);
  if (!tools) appToolsOf.set(policy, (tools = documentTools(c.schema, policy.byHash.values())));
  return tools;
}

/** The request's headers with `Authorization: Bearer <key>` as the key header the router reads. */
function withBearerKey(headers: FastifyRequest['headers']): FastifyRequest['headers'] {
  const key = bearerToken(headers.authorization);
  if (key === null) return headers;
  const given = headers['x-sp-api-key'];
  // Two different keys are the router's conflict (400), as with two key headers.
  return { ...headers, 'x-sp-api-key': given === undefined ? key : [given, key].flat() };
}

/** The headers the router sees for one tool call: the caller's key and forwarding headers, a JSON query. */
function graphHeaders(headers: FastifyRequest['headers']): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json',
  };
  for (const h of [
    'x-sp-api-key',
    'x-cg-pro-api-key',
    'x-cg-demo-api-key',
    'x-forwarded-for',
    'x-request-id',
  ]) {
    if (headers[h] !== undefined) out[h] = headers[h];
  }
  return out;
}

/** Mounts `POST /mcp` (and 405 for GET and DELETE) for `router`'s callers. */
export function mountMcp(app: FastifyInstance, router: Router, path = '/mcp'): void {
  const notAllowed = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const r = refusal(routerErrors.methodNotAllowed(req.method), {}, 'application/json; charset=utf-8');
    noteRequest(req.raw, { refusal: 'METHOD_NOT_ALLOWED' });
    return reply
      .code(r.status)
      .headers({ ...r.headers, allow: 'POST' })
      .send(r.body);
  };
  app.route({ method: ['GET', 'DELETE', 'PUT', 'PATCH'], url: path, handler: notAllowed });
  app.post(path, async (req, reply) => {
    const headers = withBearerKey(req.headers);
    const base = { ...routerRequest(req), headers };
    const early = await router.refuseEarly(base);
    if (!('caller' in early)) {
      noteRequest(req.raw, early.refused.notes ?? {});
      return reply.code(early.refused.status).headers(early.refused.headers).send(early.refused.body);
    }
    const caller = early.caller;
    if (caller?.key) noteRequest(req.raw, { keyId: caller.key.id });
    const { createMcpServer, Transport, catalog: c } = await (mcp ??= loadMcp());
    const policy = caller?.key && router.apps ? await router.apps.forKey(caller.key.id) : null;
    const trustedOnly = policy?.documents === 'trusted-only';
    // A key in an app also gets the app's documents (one named like a curated tool replaces it); a trusted-only key
    // gets those alone.
    const own = policy ? appTools(c, policy) : [];
    const ownNames = new Set(own.map((t) => t.name));
    const server = createMcpServer(c, {
      tools: trustedOnly ? own : [...c.tools.filter((t) => !ownNames.has(t.name)), ...own],
      // Any operation for a key that may send any; the listed ones only without a key.
      discovery: Boolean(caller?.key) && !trustedOnly,
      // Each call of a listed tool by a key, in usage per tool (docs/mcp.md, "Usage per tool").
      record: (tool, outcome, cost) => {
        const keyId = caller?.key?.id;
        if (keyId) router.usage?.operation(keyId, { kind: 'tool', name: tool }, outcome, cost);
      },
      run: async (op) => {
        const res = await router.handle({
          method: 'POST',
          headers: graphHeaders(headers),
          search: '',
          body: op,
          socketIp: base.socketIp,
          caller,
        });
        return { status: res.status, headers: res.headers, body: res.body };
      },
    });
    // No session id generator: stateless.
    const transport = new Transport({ enableJsonResponse: true });
    try {
      await server.connect(transport);
      const flat: [string, string][] = [];
      for (const [k, v] of Object.entries(req.headers)) {
        if (v !== undefined) flat.push([k, Array.isArray(v) ? v.join(', ') : v]);
      }
      const res = await transport.handleRequest(
        new Request(new URL(path, 'http://localhost'), { method: 'POST', headers: flat }),
        { parsedBody: req.body },
      );
      const out: Record<string, string> = {};
      res.headers.forEach((v, k) => (out[k] = v));
      return reply
        .code(res.status)
        .headers(out)
        .send(await res.text());
    } finally {
      await server.close();
    }
  });
}
