/**
 * `coinwallet supergraph`: the committed supergraph with the subgraph URLs of a deployment (from `--url` and
 * `SUBGRAPH_URLS`), what a stock gateway is given (docs/gateways.md; `test/e2e/gateways.e2e.ts` serves our subgraphs
 * from it). Everything but the four URLs and the first line is the committed document, byte for byte.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUPERGRAPH_URL, supergraphWithUrls } from '../../router/supergraph.ts';
import { runCli } from '../support/cli.ts';

const COMMITTED = readFileSync(SUPERGRAPH_URL, 'utf8');

afterEach(() => vi.unstubAllEnvs());

/** `coinwallet supergraph …` in this process, with `SUBGRAPH_URLS` (unset unless given): exit code and output. */
async function cli(args: string[], env: { SUBGRAPH_URLS?: string } = {}) {
  vi.stubEnv('SUBGRAPH_URLS', env.SUBGRAPH_URLS ?? '');
  vi.stubEnv('ADMIN_TOKEN', '');
  return runCli(['supergraph', ...args]);
}

/** The lines where `printed` differs from the committed supergraph. */
function changedLines(printed: string): string[] {
  const a = COMMITTED.split('\n');
  const b = printed.split('\n');
  expect(b).toHaveLength(a.length);
  return b.filter((line, i) => line !== a[i]);
}

const URLS = {
  markets: 'http://127.0.0.1:4001/graphql',
  identity: 'http://127.0.0.1:4002/graphql',
  bridge: 'http://10.0.0.3:4003/graphql',
  accounts: 'https://accounts.internal.example/graphql',
};

describe('coinwallet supergraph', () => {
  it('prints the committed supergraph with the URLs given by --url', async () => {
    const r = await cli(Object.entries(URLS).flatMap(([n, u]) => ['--url', `${n}=${u}`]));
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(changedLines(r.out)).toEqual([
      '# schema/supergraph.graphql with the subgraph URLs of a deployment (`coinwallet supergraph`).',
      '  ACCOUNTS @join__graph(name: "accounts", url: "https://accounts.internal.example/graphql")',
      '  BRIDGE @join__graph(name: "bridge", url: "http://10.0.0.3:4003/graphql")',
      '  IDENTITY @join__graph(name: "identity", url: "http://127.0.0.1:4002/graphql")',
      '  MARKETS @join__graph(name: "markets", url: "http://127.0.0.1:4001/graphql")',
    ]);
    expect(r.out).not.toContain('.subgraph.invalid');
  });

  it('takes what --url leaves out from SUBGRAPH_URLS, as `serve --only router` reads it', async () => {
    const env = {
      SUBGRAPH_URLS: Object.entries(URLS)
        .map(([n, u]) => `${n}=${u}`)
        .join(','),
    };
    const r = await cli(['--url', 'bridge=http://127.0.0.1:5003/graphql'], env);
    expect(r.code).toBe(0);
    expect(changedLines(r.out)).toContain(
      '  BRIDGE @join__graph(name: "bridge", url: "http://127.0.0.1:5003/graphql")',
    );
    expect(changedLines(r.out)).toContain(
      '  MARKETS @join__graph(name: "markets", url: "http://127.0.0.1:4001/graphql")',
    );
  });

  it('refuses to print placeholders: a subgraph without a URL is a usage error naming it', async () => {
    const r = await cli(['--url', `markets=${URLS.markets}`]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('no URL for identity, bridge, accounts');
    const bad = await cli([], { SUBGRAPH_URLS: 'markets=ftp://x' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('SUBGRAPH_URLS: markets needs an http(s) URL');
  });
});

describe('supergraphWithUrls', () => {
  it('refuses a document that does not name each subgraph once, and a URL a GraphQL string cannot hold', () => {
    expect(() => supergraphWithUrls(COMMITTED.replace(/name: "bridge"/, 'name: "other"'), URLS)).toThrow(
      'the supergraph names subgraph bridge 0 times, not once',
    );
    expect(() => supergraphWithUrls(COMMITTED, { ...URLS, markets: 'http://a/"b' })).toThrow(
      'is not an http(s) URL',
    );
  });
});
