/**
 * Our subgraphs behind third-party gateways, as real processes: the four subgraphs each in its own `coinwallet serve
 * --only subgraph:<name>` on one PostgreSQL, our router over them (`serve --only router`), and — from the supergraph
 * `coinwallet supergraph` prints, with only the configuration docs/gateways.md gives (`examples/gateways/`) — Hive
 * Gateway (its `hive-gateway` CLI) and a vanilla Apollo Gateway on Apollo Server. Every operation of
 * `support/gateway-cases.ts` goes to all three: `data` must be the same after key ordering and the error codes the
 * same, apart from the differences listed below with their reasons (any other fails the test, and so does a listed
 * one that went away). One set of processes for the whole file.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { buildSchema, Kind, parse } from 'graphql';
import type { SelectionSetNode } from 'graphql';
import { readFileSync } from 'node:fs';
import { LTC } from '../../src/crypto/coins.ts';
import { addressOf, signMessage } from '../../src/crypto/signed-message.ts';
import { openDb } from '../../src/store/open.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import { gatewayCases, stoppedSubgraphCases } from './support/gateway-cases.ts';
import type { Fixture, GatewayCase } from './support/gateway-cases.ts';
import { printSupergraph, startApolloGateway, startHiveGateway } from './support/gateways.ts';
import type { GatewayProcess } from './support/gateways.ts';

const NAMES = ['markets', 'identity', 'bridge', 'accounts'] as const;
const ADMIN_TOKEN = 'gateways-e2e-admin-token-0123456789';
const OURS = 'ours';
const HIVE = 'Hive Gateway';
const APOLLO = 'Apollo Gateway';
const THIRD_PARTY = [HIVE, APOLLO] as const;

/**
 * Where our router answers otherwise on purpose, by case: the rules it adds in front of execution (keys, budgets,
 * cost ceilings), which a stock gateway does not have (docs/gateways.md, "What each gateway enforces").
 */
const BY_DESIGN: Readonly<Record<string, string>> = {
  'an unknown API key':
    'our router checks keys before anything else (401 API_KEY_UNKNOWN); stock gateways have none',
  'over the keyless cost ceiling':
    'our router refuses an operation over its plan’s cost ceiling (400); stock gateways enforce no ceiling unless configured',
};

/**
 * Where a third-party gateway differs from ours (and from the other gateway), by gateway and case: its own behaviour,
 * not ours to change. Hive Gateway 2.15 with its default (JavaScript) planner, as docs/gateways.md configures it; our
 * router runs on the same runtime and mends both (router/README.md, "The engine"). With `--hive-router-runtime` (the
 * Rust planner) a stock Hive Gateway differs in more cases (`test/graph/differential.test.ts`).
 */
const THIRD_PARTY_DIFFERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [HIVE]: {
    'a variable of the wrong type: refused before either path':
      'a variable that does not coerce: the error has no `extensions.code` (ours and Apollo’s: BAD_USER_INPUT)',
    'a list selected twice, one field skipped by a variable, across subgraphs: the gateway':
      'a list selected twice with an entity hop and `@skip` inside: its planner fails the whole operation (INTERNAL_SERVER_ERROR, data null)',
  },
  [APOLLO]: {},
};

/** Each gateway has its own code for a subgraph it cannot reach; ours names it (`SUBGRAPH_UNAVAILABLE`). */
const UNREACHABLE_CODE: Readonly<Record<string, string>> = {
  [OURS]: 'SUBGRAPH_UNAVAILABLE',
  [HIVE]: 'INTERNAL_SERVER_ERROR',
  [APOLLO]: 'INTERNAL_SERVER_ERROR',
};

let root: string;
let env: Record<string, string>;
const started: ServeProcess[] = [];
const subgraphs = {} as Record<(typeof NAMES)[number], ServeProcess>;
let router: ServeProcess;
const gateways: GatewayProcess[] = [];
/** Where each gateway answers GraphQL. */
const endpoints: Record<string, string> = {};
let enterpriseKey: string;
let session: string;
let fixture: Fixture;
const timings: Record<string, number> = {};
let failed = true;

interface Answer {
  status: number;
  body: {
    data?: unknown;
    errors?: { message?: string; extensions?: Record<string, unknown> }[];
  };
}

/** One POST to a gateway as `c` says (caller, key), with `headers` added. */
async function ask(
  gateway: string,
  c: Pick<GatewayCase, 'query' | 'variables' | 'operationName' | 'as' | 'key'>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const auth: Record<string, string> =
    c.as === 'session'
      ? { authorization: `Bearer ${session}` }
      : c.as === 'operator'
        ? { authorization: `Bearer ${ADMIN_TOKEN}` }
        : c.as === 'bad-session'
          ? { authorization: 'Bearer cws_no-such-session' }
          : {};
  const key = c.key ?? 'enterprise';
  const apiKey: Record<string, string> =
    key === 'enterprise'
      ? { 'x-sp-api-key': enterpriseKey }
      : key === 'unknown'
        ? { 'x-sp-api-key': 'cw_live_unknown' }
        : {};
  const variables = typeof c.variables === 'function' ? c.variables(gateway) : c.variables;
  const r = await fetch(endpoints[gateway]!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth, ...apiKey, ...headers },
    body: JSON.stringify({
      query: c.query,
      ...(variables ? { variables } : {}),
      ...(c.operationName ? { operationName: c.operationName } : {}),
    }),
  });
  const text = await r.text();
  return { status: r.status, body: JSON.parse(text) as Answer['body'] };
}

/** JSON with every object's keys sorted: "byte for byte after key ordering". */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
}

/** What the comparison reads of an answer: its data (or `absent`) and its error codes, sorted. */
const reduce = (a: Answer) => ({
  data: 'data' in a.body ? canonical(a.body.data) : 'absent',
  codes: (a.body.errors ?? []).map((e) => String(e.extensions?.['code'] ?? '(none)')).sort(),
});

/** Our router, for setting up the fixture. */
async function ours(query: string, variables: Record<string, unknown>, token?: string) {
  const a = await ask(
    OURS,
    { query, variables, as: 'anonymous', key: 'none' },
    token ? { authorization: `Bearer ${token}` } : {},
  );
  if (a.body.errors) throw new Error(`${query}: ${JSON.stringify(a.body.errors)}`);
  return a.body.data as Record<string, Record<string, unknown>>;
}

async function makeFixture(): Promise<void> {
  endpoints[OURS] = `${router.url}/graphql`;
  const issued = await ours(
    'mutation { issueApiKey(plan: ENTERPRISE, description: "gateway differential", approve: true) { key } }',
    {},
    ADMIN_TOKEN,
  );
  enterpriseKey = issued['issueApiKey']!['key'] as string;
  // A wallet signs in through the graph, registers a name and links its LTC address to it.
  const secret = randomBytes(32);
  const address = addressOf(LTC, secret, 'p2wpkh');
  const sign = (text: string) => signMessage(LTC, secret, text, 'p2wpkh');
  const c = await ours('mutation ($a: String!) { requestSignInChallenge(address: $a) { challenge nonce } }', {
    a: address,
  });
  const { challenge, nonce } = c['requestSignInChallenge'] as { challenge: string; nonce: string };
  const s = await ours(
    'mutation ($a: String!, $s: String!, $n: String) { signIn(address: $a, signature: $s, nonce: $n) { token } }',
    { a: address, s: sign(challenge), n: nonce },
  );
  session = s['signIn']!['token'] as string;
  const name = `gw${randomBytes(4).toString('hex')}.coin`;
  await ours('mutation ($n: String!) { registerName(name: $n) { name } }', { n: name }, session);
  const p = await ours(
    'mutation ($n: String!, $a: String!) { requestAddressChallenge(name: $n, asset: "LTC", address: $a) { challenge nonce } }',
    { n: name, a: address },
    session,
  );
  const proof = p['requestAddressChallenge'] as { challenge: string; nonce: string };
  await ours(
    `mutation ($n: String!, $a: String!, $s: String!, $o: String!) {
      linkAddress(name: $n, asset: "LTC", address: $a, signature: $s, nonce: $o) { name } }`,
    { n: name, a: address, s: sign(proof.challenge), o: proof.nonce },
    session,
  );
  const k = await ours(
    'mutation { requestApiKey(plan: PRO, description: "my dashboard") { apiKey { id } } }',
    {},
    session,
  );
  fixture = { name, address, keyId: (k['requestApiKey']!['apiKey'] as { id: string }).id };
}

beforeAll(async () => {
  const t0 = Date.now();
  root = mkdtempSync(join(tmpdir(), 'cw-gateways-'));
  const schema = `gateways_${Date.now().toString(36)}`;
  const admin = await openDb({ databaseUrl: inject('databaseUrl') });
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const url = new URL(inject('databaseUrl'));
  url.searchParams.set('options', `-c search_path=${schema}`);
  env = {
    DATABASE_URL: url.toString(),
    API_KEY_PEPPER: 'gateways-e2e-pepper-0123456789',
    ADMIN_TOKEN,
    BRIDGE_ATTESTATION_KEY: 'b7'.repeat(32),
    DEMO_DAYS: '3',
    // One snapshot for the whole run: the three gateways' answers are compared, so no tick may change prices.
    TICK_INTERVAL_MS: '3600000',
    SIGN_IN_DOMAIN: 'gateways.test',
  };
  const serve = async (name: string, extra: Record<string, string>, args: string[]) => {
    const dataDir = join(root, name);
    mkdirSync(dataDir, { recursive: true });
    const p = await startServe({ ...env, ...extra, DATA_DIR: dataDir }, 60_000, [], args);
    started.push(p);
    return p;
  };
  // markets first (it migrates the schema), the others once it listens; access lines from accounts (request ids).
  subgraphs.markets = await serve('markets', {}, ['--only', 'subgraph:markets']);
  const rest = await Promise.all(
    NAMES.slice(1).map((n) =>
      serve(n, n === 'accounts' ? { LOG_LEVEL: 'info' } : {}, ['--only', `subgraph:${n}`]),
    ),
  );
  NAMES.slice(1).forEach((n, i) => (subgraphs[n] = rest[i]!));
  const urls = Object.fromEntries(NAMES.map((n) => [n, `${subgraphs[n].url}/graphql`]));
  const supergraphFile = join(root, 'supergraph.graphql');
  const [r] = await Promise.all([
    serve('router', { SUBGRAPH_URLS: NAMES.map((n) => `${n}=${urls[n]}`).join(',') }, ['--only', 'router']),
    printSupergraph(urls, supergraphFile),
  ]);
  router = r;
  timings.listening = Date.now() - t0;
  // The third-party gateways start while the subgraphs get ready (the markets subgraph loads its demo data).
  const [hive, apollo] = await Promise.all([
    startHiveGateway(supergraphFile),
    startApolloGateway(supergraphFile),
    ...started.map((p) => waitForStatus(`${p.url}/healthz`, 200, 150_000)),
  ]);
  gateways.push(hive, apollo);
  endpoints[HIVE] = hive.graphql;
  endpoints[APOLLO] = apollo.graphql;
  timings.ready = Date.now() - t0;
  await makeFixture();
  timings.fixture = Date.now() - t0;
  failed = false;
}, 180_000);

beforeEach(({ onTestFailed }) => onTestFailed(() => void (failed = true)));

afterAll(async () => {
  if (failed)
    for (const p of [...started, ...gateways])
      console.log(`--- ${p.child.spawnargs.slice(1).join(' ')}\n${p.output().slice(-20_000)}`);
  await Promise.all([...gateways, ...started].map((p) => p.stop()));
  if (root) rmSync(root, { recursive: true, force: true });
  console.log('gateways e2e timings (ms):', timings);
});

/** The fields of the API schema's Query type that no case selects at its root. */
function uncoveredRootFields(cases: GatewayCase[]): string[] {
  const api = buildSchema(
    readFileSync(join(import.meta.dirname, '..', '..', 'schema', 'api.graphql'), 'utf8'),
  );
  const selected = new Set<string>();
  const collect = (set: SelectionSetNode): void => {
    for (const sel of set.selections)
      if (sel.kind === Kind.FIELD) selected.add(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) collect(sel.selectionSet);
  };
  for (const c of cases)
    for (const d of parse(c.query).definitions)
      if (d.kind === Kind.OPERATION_DEFINITION && d.operation === 'query') collect(d.selectionSet);
  return Object.keys(api.getQueryType()!.getFields()).filter((f) => !selected.has(f));
}

/** Waits (never a fixed sleep) until `check` holds: access lines are written in batches, at most 100 ms late. */
async function eventually(check: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return check();
}

describe('our subgraphs behind Hive Gateway and a vanilla Apollo Gateway, against our router', () => {
  it('answers at least 40 operations over every root field alike: same data after key ordering, same error codes', async () => {
    const t0 = Date.now();
    const cases = gatewayCases(fixture);
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(uncoveredRootFields(cases), 'a root field without a case in support/gateway-cases.ts').toEqual([]);
    const differences: string[] = [];
    for (const c of cases) {
      // The three at once: they read the same store and snapshot.
      const [mine, ...theirs] = await Promise.all([OURS, ...THIRD_PARTY].map((g) => ask(g, c)));
      const ref = reduce(mine!);
      if (c.codes && canonical(ref.codes) !== canonical(c.codes))
        differences.push(`${c.name}: ours ${ref.codes.join(', ')}, the case says ${c.codes.join(', ')}`);
      if (ref.data === 'absent' && ref.codes.length === 0)
        differences.push(`${c.name}: ours no data, no code`);
      THIRD_PARTY.forEach((g, i) => {
        const a = theirs[i]!;
        // A gateway's answer with data is 200, and no error carries a status of a subgraph's.
        if ('data' in a.body && a.status !== 200)
          differences.push(`${c.name}: ${g} HTTP ${a.status} with data`);
        for (const e of a.body.errors ?? [])
          if (e.extensions && 'http' in e.extensions)
            differences.push(`${c.name}: ${g} extensions.http ${JSON.stringify(e.extensions['http'])}`);
        const same = canonical(reduce(a)) === canonical(ref);
        const listed = BY_DESIGN[c.name] ?? THIRD_PARTY_DIFFERS[g]?.[c.name];
        if (listed !== undefined && same) differences.push(`${c.name}: ${g} no longer differs (${listed})`);
        if (listed === undefined && !same)
          differences.push(`${c.name}: ${g} ${JSON.stringify(reduce(a))}, ours ${JSON.stringify(ref)}`);
      });
    }
    timings.cases = Date.now() - t0;
    expect(differences).toEqual([]);
  });

  it('forwards the session token and the request id to the subgraphs with only the documented configuration', async () => {
    for (const g of THIRD_PARTY) {
      const id = `gw-${g.split(' ')[0]!.toLowerCase()}-${randomBytes(6).toString('hex')}`;
      const a = await ask(g, { query: '{ me { address } }', as: 'session' }, { 'x-request-id': id });
      expect(a.body).toEqual({ data: { me: { address: fixture.address } } });
      // The accounts subgraph's access line carries the id the client sent.
      expect(await eventually(() => subgraphs.accounts.output().includes(`"reqId":"${id}"`)), id).toBe(true);
    }
  });

  it('a subgraph stopped: the same data from every gateway, the error each its own code', async () => {
    await subgraphs.identity.stop('SIGTERM');
    const differences: string[] = [];
    for (const c of stoppedSubgraphCases(fixture)) {
      const [mine, ...theirs] = await Promise.all([OURS, ...THIRD_PARTY].map((g) => ask(g, c)));
      const ref = reduce(mine!);
      expect({ case: c.name, codes: ref.codes }).toEqual({ case: c.name, codes: [UNREACHABLE_CODE[OURS]] });
      THIRD_PARTY.forEach((g, i) => {
        const a = reduce(theirs[i]!);
        if (a.data !== ref.data) differences.push(`${c.name}: ${g} data ${a.data}, ours ${ref.data}`);
        if (canonical(a.codes) !== canonical([UNREACHABLE_CODE[g]]))
          differences.push(`${c.name}: ${g} codes ${a.codes.join(', ')}`);
      });
    }
    expect(differences).toEqual([]);
  });
});
