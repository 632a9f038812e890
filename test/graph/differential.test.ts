/**
 * Differential test of the router: every operation of `operations.ts` is sent to our router — embedded and over HTTP
 * subgraphs, every plugin on — and to two stock gateways over the same four subgraphs served on loopback HTTP: a
 * vanilla `@apollo/gateway` on Apollo Server (the reference) and the Hive Gateway runtime with its Rust query planner
 * (the runtime our router runs on), over HTTP and over the router's in-process transport. Data must be byte for byte
 * the same; the error codes the same set.
 *
 * Our router runs with both query planners (Rust, the default, and the runtime's JS one). The stock gateways
 * forward `authorization` to the subgraphs, as our router does, and nothing else. Where an answer differs today is
 * listed in `KNOWN_DIFFERENCES`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import * as httpTransport from '@graphql-mesh/transport-http';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourcesTransport } from '../../router/engines/hive-sources.ts';
import { createSources } from '../../router/sources/create.ts';
import { createRouter, SUPERGRAPH_URL } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import { mountSubgraph } from '../../subgraphs/shared/http.ts';
import type { SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { signIn, wallet } from '../accounts/harness.ts';
import { CASES } from './operations.ts';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';

/** One answer, reduced to what the comparison reads. */
interface Answer {
  /**
   * `data` as serialised by the gateway (key order and number text included): its SHA-256 and length, so that a
   * difference reads in one line; `absent` when the answer has no `data`.
   */
  data: string;
  codes: string[];
}

type Ask = (
  query: string,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  headers: Record<string, string>,
) => Promise<Answer>;

const bodyOf = (query: string, variables?: Record<string, unknown>, operationName?: string) => ({
  query,
  ...(variables ? { variables } : {}),
  ...(operationName ? { operationName } : {}),
});

function answer(text: string): Answer {
  const body = JSON.parse(text) as { data?: unknown; errors?: { extensions?: { code?: unknown } }[] };
  const codes = new Set((body.errors ?? []).map((e) => String(e.extensions?.code ?? '(none)')));
  const data = 'data' in body ? JSON.stringify(body.data) : null;
  return {
    data:
      data === null
        ? 'absent'
        : `${createHash('sha256').update(data).digest('hex').slice(0, 16)} (${data.length} bytes)`,
    codes: [...codes].sort(),
  };
}

/** router-runtime 1.4 merges a key selected twice without regard to lists (`router/engines/plannable.ts`). */
const LIST_TWICE_AS_LONG =
  'a list selected twice in one selection set comes back twice as long, each element half';

/**
 * Where an answer differs from the reference today, by variant and case: for the stock Hive Gateway runtime (2.12,
 * Rust planner). Our router's Hive engine mends each (`router/engines/hive.ts`, `plannable.ts`). Any other difference
 * fails the test, and so does one of these going away (the list is then out of date).
 */
const STOCK_HIVE_DIFFERS: Readonly<Record<string, string>> = {
  'introspection: the gateway':
    '`__type` beside a subgraph field: the subgraph field is null, without an error',
  'a bad argument: the gateway':
    'an error on a non-null root field: no `data` at all instead of `data: null`',
  'a variable of the wrong type: refused before either path': 'a variable coercion error without a code',
  'a mutation without a session: refused by the subgraph':
    'an error on a non-null root field: no `data` at all instead of `data: null`',
  'the same field under two response keys, in two selections of one list': LIST_TWICE_AS_LONG,
  'a list selected twice, one field skipped by a variable, across subgraphs: the gateway': LIST_TWICE_AS_LONG,
  'every root field skipped by @include: an empty answer': 'the Rust planner fails: a 500 without data',
};
const HIVE = 'Hive Gateway runtime, Rust planner';
const KNOWN_DIFFERENCES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [`${HIVE}, HTTP subgraphs`]: STOCK_HIVE_DIFFERS,
  [`${HIVE}, in-process subgraphs`]: STOCK_HIVE_DIFFERS,
};

let g: GraphHarness;
let key: string;
const apps: FastifyInstance[] = [];
let overHttp: Router;
let jsPlanner: Router;
let jsPlannerOverHttp: Router;
let vanilla: ApolloServer;
let hive: ReturnType<typeof createGatewayRuntime>;
let hiveEmbedded: ReturnType<typeof createGatewayRuntime>;
const askers = new Map<string, Ask>();

beforeAll(async () => {
  g = await graphHarness();
  key = (await g.makeKey('enterprise')).key;
  const urls = {} as Record<SubgraphName, string>;
  for (const sg of g.subgraphs) {
    const app = Fastify();
    await mountSubgraph(app, sg);
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
    urls[sg.name] = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/graphql`;
  }
  overHttp = await createRouter({ access: g.access, subgraphs: { kind: 'http', urls } });
  // The JS planner, embedded without direct execution so that every operation is planned.
  jsPlanner = await createRouter({
    access: g.access,
    subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
    planner: 'js',
    directExecution: false,
  });
  jsPlannerOverHttp = await createRouter({
    access: g.access,
    subgraphs: { kind: 'http', urls },
    planner: 'js',
  });
  const sdl = readFileSync(SUPERGRAPH_URL, 'utf8');

  vanilla = new ApolloServer({
    gateway: new ApolloGateway({
      supergraphSdl: sdl,
      buildService: ({ name }) =>
        new RemoteGraphQLDataSource<{ authorization?: string }>({
          url: urls[name as SubgraphName],
          willSendRequest({ request, context }) {
            if (context.authorization) request.http?.headers.set('authorization', context.authorization);
          },
        }),
    }),
  });
  await vanilla.start();

  hive = createGatewayRuntime({
    supergraph: sdl,
    unifiedGraphHandler,
    transports: { http: httpTransport },
    transportEntries: Object.fromEntries(Object.entries(urls).map(([n, url]) => [n, { location: url }])),
    propagateHeaders: {
      fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get('authorization') }),
    },
    logging: false,
    landingPage: false,
    graphiql: false,
  });

  // The same runtime over the router's in-process sources.
  hiveEmbedded = createGatewayRuntime({
    supergraph: sdl,
    unifiedGraphHandler,
    // Our in-process sources as the runtime's transport (`router/engines/hive-sources.ts`), nothing else of ours.
    transports: {
      inprocess: sourcesTransport(
        createSources({ kind: 'in-process', subgraphs: g.subgraphs }, 5_000, { warn() {} }, false),
      ),
    },
    transportEntries: { '*': { kind: 'inprocess' } },
    logging: false,
    landingPage: false,
    graphiql: false,
  });

  let ip = 0;
  const viaRouter =
    (r: Router): Ask =>
    async (query, variables, operationName, headers) => {
      const res = await r.handle({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sp-api-key': key, ...headers },
        search: '',
        body: bodyOf(query, variables, operationName),
        socketIp: `10.78.0.${(++ip % 250) + 1}`,
      });
      return answer(res.body);
    };
  askers.set('ours, embedded', viaRouter(g.router));
  askers.set('ours, HTTP subgraphs', viaRouter(overHttp));
  askers.set('ours, JS planner, embedded', viaRouter(jsPlanner));
  askers.set('ours, JS planner, HTTP subgraphs', viaRouter(jsPlannerOverHttp));
  askers.set('vanilla @apollo/gateway', async (query, variables, operationName, headers) => {
    const hm = new HeaderMap([['content-type', 'application/json'], ...Object.entries(headers)]);
    const res = await vanilla.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: 'POST',
        headers: hm,
        search: '',
        body: bodyOf(query, variables, operationName),
      },
      context: async () => ({
        ...(headers['authorization'] ? { authorization: headers['authorization'] } : {}),
      }),
    });
    if (res.body.kind !== 'complete') throw new Error('vanilla: a streamed answer');
    return answer(res.body.string);
  });
  const viaHive =
    (runtime: ReturnType<typeof createGatewayRuntime>): Ask =>
    async (query, variables, operationName, headers) => {
      const res = await runtime.fetch('http://router.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify(bodyOf(query, variables, operationName)),
      });
      return answer(await res.text());
    };
  askers.set(`${HIVE}, HTTP subgraphs`, viaHive(hive));
  askers.set(`${HIVE}, in-process subgraphs`, viaHive(hiveEmbedded));
}, 120_000);

afterAll(async () => {
  await overHttp?.stop();
  await jsPlanner?.stop();
  await jsPlannerOverHttp?.stop();
  await vanilla?.stop();
  await hive?.dispose();
  await hiveEmbedded?.dispose();
  for (const app of apps) await app.close();
  await g?.close();
});

describe('the router against stock gateways over the same subgraphs', () => {
  it('answers every operation with the same data, byte for byte, and the same error codes', async () => {
    const token = await signIn(g.rest, wallet());
    const reference = 'vanilla @apollo/gateway';
    const differences: string[] = [];
    for (const c of CASES) {
      const headers: Record<string, string> = c.session ? { authorization: `Bearer ${token}` } : {};
      const answers = new Map<string, Answer>();
      for (const [name, ask] of askers)
        answers.set(name, await ask(c.query, c.variables, c.operationName, headers));
      const ref = answers.get(reference) as Answer;
      // Every case answers something: data, or a refusal with a code.
      if (ref.data === 'absent' && ref.codes.length === 0) differences.push(`${c.name}: no data and no code`);
      for (const [name, a] of answers) {
        const same = isDeepStrictEqual(a, ref);
        const known = KNOWN_DIFFERENCES[name]?.[c.name];
        if (known !== undefined) {
          if (same) differences.push(`${c.name}: ${name} no longer differs (${known})`);
        } else if (!same)
          differences.push(`${c.name}: ${name} ${JSON.stringify(a)}, ${reference} ${JSON.stringify(ref)}`);
      }
    }
    expect(differences).toEqual([]);
  });
});
