/**
 * The graph as MCP tools (issue 36): the operation tools (`tools.ts`: the curated ones, and the trusted documents of
 * the caller's app), two discovery tools for callers who may send any operation (`search_schema`, `execute`), and read-only resources (the API schema, the methodology, the plans).
 * A tool call is one GraphQL operation run through the router as its caller — the same key, budget, cost ceiling
 * and usage as the caller's own GraphQL requests — and its answer is the operation's `data`, nulls included.
 *
 * Errors (docs/mcp.md): an unknown tool or arguments that do not match the tool's input schema are JSON-RPC errors
 * (-32602, `data.code` UNKNOWN_TOOL or BAD_ARGUMENTS); a refusal or failure of the operation itself (over budget,
 * over the cost ceiling, a GraphQL error) is a tool result with `isError: true`, our stable code first in its text
 * and in `_meta.code`, as MCP asks of execution errors so that the agent sees them.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { getNamedType, isObjectType, parse } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import type { CostDirectives } from '../cost/directives.ts';
import type { OperationTool } from './tools.ts';
import type { OperationOutcome } from '../../src/access/usage.ts';

/** How a tool result counts in usage per tool: refused (401, 403, 429), another error, or ok; its `_meta.cost`. */
function usageOf(r: CallToolResult): [OperationOutcome, number] {
  const meta = r._meta ?? {};
  const status = Number(meta['status']);
  const outcome = !r.isError
    ? 'ok'
    : status === 401 || status === 403 || status === 429
      ? 'refused'
      : 'error';
  const cost = Number(meta['cost']);
  return [outcome, Number.isFinite(cost) ? cost : 0];
}

/** One read-only document an agent may read. */
export interface McpResource {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  text: string;
}

/** What every MCP session of a process shares: built once. */
export interface McpCatalog {
  version: string;
  /** The curated operations every caller gets (unless its key runs trusted documents only). */
  tools: readonly OperationTool[];
  schema: GraphQLSchema;
  costs: CostDirectives;
  resources: readonly McpResource[];
}

/** The router's answer to one operation, as the caller. */
export interface GraphAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** One session's caller: how operations run, its operation tools, and whether it may send any operation. */
export interface McpCaller {
  run(op: {
    query: string;
    variables?: Record<string, unknown>;
    operationName?: string;
  }): Promise<GraphAnswer>;
  tools: readonly OperationTool[];
  /** Offer `search_schema` and `execute` (false when only listed operations may run). */
  discovery: boolean;
  /** Counts one call of a listed tool in usage per tool, with its outcome and measured cost; default nowhere. */
  record?: ((tool: string, outcome: OperationOutcome, cost: number) => void) | undefined;
}

const SEARCH_LIMIT = 25;

const DISCOVERY: readonly Tool[] = [
  {
    name: 'search_schema',
    title: 'Search the schema',
    description:
      'Types and fields of the graph whose name or description matches the words, with their arguments, descriptions and cost weights. Use it to write an operation for `execute`.',
    inputSchema: {
      type: 'object',
      properties: {
        words: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'Words to match, e.g. "coin chart".',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: SEARCH_LIMIT },
      },
      required: ['words'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'execute',
    title: 'Run a query',
    description:
      "Runs one GraphQL query (not a mutation) that passes validation and the plan's cost ceiling; returns its data and, in _meta, its cost.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          description: 'A GraphQL document with one query (or name it).',
        },
        variables: { type: 'object', description: 'The variables of the query.' },
        operationName: { type: 'string', description: 'The query to run when the document has several.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

const validators = new AjvJsonSchemaValidator();
const validatorOf = new WeakMap<object, JsonSchemaValidator<Record<string, unknown>>>();

/** Checks `args` against the tool's input schema: a JSON-RPC error naming what was expected when they do not fit. */
function checkArguments(tool: Tool, args: unknown): Record<string, unknown> {
  let validate = validatorOf.get(tool.inputSchema);
  if (!validate) {
    validate = validators.getValidator<Record<string, unknown>>(tool.inputSchema as never);
    validatorOf.set(tool.inputSchema, validate);
  }
  const r = validate(args ?? {});
  if (r.valid) return r.data;
  throw new McpError(
    ErrorCode.InvalidParams,
    `BAD_ARGUMENTS: the arguments of ${tool.name} do not match its input schema (${r.errorMessage}); expected ${JSON.stringify(tool.inputSchema)}`,
    { code: 'BAD_ARGUMENTS' },
  );
}

const toolOf = (t: OperationTool): Tool => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
});

interface GraphBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: { cost?: { actual?: unknown } };
}

/** The tool result of the router's answer: `data` (with any errors beside it), or an error result with our code. */
function resultOf(answer: GraphAnswer): CallToolResult {
  let body: GraphBody;
  try {
    body = JSON.parse(answer.body) as GraphBody;
  } catch {
    body = {
      errors: [{ message: answer.body.slice(0, 200), extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    };
  }
  // The measured cost (what the budget is charged, `extensions.cost.actual`), else the estimate the header gives.
  const estimated = Number(answer.headers['x-query-cost']);
  const measured = body.extensions?.cost?.actual;
  const cost = typeof measured === 'number' ? measured : estimated;
  const meta: Record<string, unknown> = Number.isFinite(cost) ? { cost } : {};
  if (Number.isFinite(estimated)) meta['estimatedCost'] = estimated;
  const retryAfter = Number(answer.headers['retry-after']);
  if (answer.status === 200 && body.data) {
    const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(body.data) }];
    if (body.errors?.length) {
      meta.errors = body.errors;
      content.push({ type: 'text', text: `errors beside the data: ${JSON.stringify(body.errors)}` });
    }
    return { content, structuredContent: body.data, _meta: meta };
  }
  const first = body.errors?.[0];
  const code = first?.extensions?.code ?? `HTTP_${answer.status}`;
  Object.assign(
    meta,
    { code, status: answer.status },
    Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {},
  );
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${first?.message ?? 'the operation failed'}` }],
    _meta: meta,
  };
}

/** Fields of the API schema matching `words`, best first (name matches weigh twice a description's). */
function searchSchema(catalog: McpCatalog, words: string, limit: number): unknown[] {
  const terms = words
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter(Boolean);
  const hits: { score: number; entry: Record<string, unknown> }[] = [];
  for (const type of Object.values(catalog.schema.getTypeMap())) {
    if (type.name.startsWith('__') || !isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const name = `${type.name}.${field.name}`.toLowerCase();
      const text = (field.description ?? '').toLowerCase();
      let score = 0;
      for (const t of terms) score += (name.includes(t) ? 2 : 0) + (text.includes(t) ? 1 : 0);
      if (score === 0) continue;
      const cost = catalog.costs.get(`${type.name}.${field.name}`);
      hits.push({
        score,
        entry: {
          coordinate: `${type.name}.${field.name}`,
          type: String(field.type),
          description: field.description ?? null,
          arguments: field.args.map((a) => ({
            name: a.name,
            type: String(a.type),
            description: a.description ?? null,
            default: a.defaultValue ?? null,
          })),
          cost: {
            weight: cost?.weight ?? (isObjectType(getNamedType(field.type)) ? 1 : 0),
            assumedListSize: cost?.listSize?.assumedSize ?? null,
            slicingArguments: cost?.listSize?.slicingArguments ?? [],
          },
        },
      });
    }
  }
  return hits
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((h) => h.entry);
}

/** True when `query` names or holds an operation other than a query (a parse error is left to the router). */
function notAQuery(query: string, operationName: string | undefined): boolean {
  try {
    const ops = parse(query).definitions.filter((d) => d.kind === 'OperationDefinition');
    const chosen = operationName ? ops.filter((o) => o.name?.value === operationName) : ops;
    return chosen.some((o) => o.operation !== 'query');
  } catch {
    return false;
  }
}

/** An MCP server for one session of `caller` (the transport is stateless: one per HTTP request). */
export function createMcpServer(catalog: McpCatalog, caller: McpCaller): Server {
  const server = new Server(
    { name: 'coinwallet', title: 'Coin Wallet graph', version: catalog.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Prices, markets, charts and names of the Coin Wallet graph. Every tool call counts as one request of your API key and is charged its measured cost (in the result _meta). A figure that cannot be verified is null, never a guess.',
    },
  );
  const tools = new Map(caller.tools.map((t) => [t.name, t]));
  const listed = [...caller.tools.map(toolOf), ...(caller.discovery ? DISCOVERY : [])];
  const byName = new Map(listed.map((t) => [t.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    // An unknown name is not counted (agents cannot grow the table with names of their own).
    if (!tool) return call(req.params.name, req.params.arguments);
    try {
      const result = await call(tool.name, req.params.arguments);
      caller.record?.(tool.name, ...usageOf(result));
      return result;
    } catch (e) {
      caller.record?.(tool.name, 'error', 0);
      throw e;
    }
  });

  /** One tool call's result (a JSON-RPC error for an unknown tool or bad arguments). */
  async function call(name: string, rawArgs: unknown): Promise<CallToolResult> {
    const tool = byName.get(name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `UNKNOWN_TOOL: there is no tool ${JSON.stringify(name)}; tools/list names them (${[...byName.keys()].join(', ')})`,
        { code: 'UNKNOWN_TOOL' },
      );
    }
    const args = checkArguments(tool, rawArgs);
    const op = tools.get(tool.name);
    if (op)
      return resultOf(
        await caller.run({ query: op.query, variables: args, operationName: op.operationName }),
      );
    if (tool.name === 'search_schema') {
      const found = searchSchema(catalog, String(args.words), Number(args.limit ?? SEARCH_LIMIT));
      return {
        content: [{ type: 'text', text: JSON.stringify(found) }],
        structuredContent: { fields: found },
      };
    }
    const query = String(args.query);
    const operationName = args.operationName as string | undefined;
    if (notAQuery(query, operationName)) {
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: 'OPERATION_NOT_ALLOWED: execute runs queries only, not mutations or subscriptions',
          },
        ],
        _meta: { code: 'OPERATION_NOT_ALLOWED', status: 400 },
      };
    }
    return resultOf(
      await caller.run({
        query,
        ...(args.variables ? { variables: args.variables as Record<string, unknown> } : {}),
        ...(operationName ? { operationName } : {}),
      }),
    );
  }
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: catalog.resources.map(({ uri, name, description, mimeType }) => ({
      uri,
      name,
      description,
      mimeType,
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => {
    const r = catalog.resources.find((x) => x.uri === req.params.uri);
    if (!r) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `UNKNOWN_RESOURCE: there is no resource ${JSON.stringify(req.params.uri)}; resources/list names them`,
        { code: 'UNKNOWN_RESOURCE' },
      );
    }
    return { contents: [{ uri: r.uri, mimeType: r.mimeType, text: r.text }] };
  });
  return server;
}
