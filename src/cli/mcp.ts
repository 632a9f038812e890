/**
 * `coinwallet mcp --url URL`: the graph's MCP server (`/mcp`, `router/mcp/`) offered over stdio, for agent hosts
 * that start a local command. A bridge: each request of the host is sent to URL/mcp with the API key of
 * `COINWALLET_API_KEY`, and its answer passed back unchanged; budgets and usage are the server's. An HTTP refusal
 * (401 for a revoked key, 429) reaches the host as a JSON-RPC error whose message holds the server's answer.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { projectPath } from '../core/project-root.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { MCP } from './specs.ts';

export const mcp: Command = { spec: MCP, run: (args) => runMcp(args) };

/** A failure of the HTTP side as a JSON-RPC error (an `McpError` of the server passes unchanged). */
function relayed(err: unknown): McpError {
  if (err instanceof McpError) return err;
  const status = (err as { code?: unknown }).code;
  return new McpError(ErrorCode.InvalidRequest, err instanceof Error ? err.message : String(err), {
    ...(typeof status === 'number' ? { status } : {}),
  });
}

const relay =
  <P, R>(call: (params: P) => Promise<R>) =>
  async (req: { params?: P }): Promise<R> => {
    try {
      return await call(req.params as P);
    } catch (err) {
      throw relayed(err);
    }
  };

async function runMcp({ flags, positional }: Args): Promise<number> {
  if (positional.length > 0) throw new UsageError(`mcp takes no arguments (got ${positional[0]})`);
  const base = (typeof flags['url'] === 'string' ? flags['url'] : undefined) ?? process.env.COINWALLET_URL;
  if (!base) throw new UsageError('give the server: --url URL, or COINWALLET_URL');
  let endpoint: URL;
  try {
    endpoint = new URL('/mcp', base);
  } catch {
    throw new UsageError(`--url must be an http(s) URL (got ${base})`);
  }
  const key = process.env.COINWALLET_API_KEY?.trim();
  const version = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string })
    .version;
  const client = new Client({ name: 'coinwallet-mcp', version });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: key ? { 'x-sp-api-key': key } : {} },
      }),
    );
  } catch (err) {
    process.stderr.write(
      `coinwallet mcp: ${endpoint.href} did not accept the connection: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    return 1;
  }
  const server = new Server(
    { name: 'coinwallet', version },
    { capabilities: { tools: {}, resources: {} }, instructions: client.getInstructions() ?? '' },
  );
  server.setRequestHandler(
    ListToolsRequestSchema,
    relay((p) => client.listTools(p)),
  );
  server.setRequestHandler(
    CallToolRequestSchema,
    relay((p) => client.callTool(p)),
  );
  server.setRequestHandler(
    ListResourcesRequestSchema,
    relay((p) => client.listResources(p)),
  );
  server.setRequestHandler(
    ReadResourceRequestSchema,
    relay((p) => client.readResource(p)),
  );
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  await closed;
  await client.close();
  return 0;
}
