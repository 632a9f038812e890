/**
 * Request statistics through the embedded graph (`router-harness.ts` with a `UsageRecorder` wired as the product
 * wires it: the access layer counts per key, the router per plan and cost, the accounts subgraph reads them):
 * `ApiKey.usage` (owner, administrators, operator) and `serviceStats` (administrators, operator).
 *
 * The recorder runs on its own settable clock, set some minutes in the past (the subgraph reads the window up to
 * the real now), so each request lands in a minute the test chose.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COST_BUCKETS, MINUTE_MS, costBucket, minuteOf } from '../../src/access/usage.ts';
import type { KeyUsageMinute } from '../../src/access/usage.ts';
import type { UsageRecorder } from '../../src/access/usage-recorder.ts';
import type { AccountsContext } from '../../subgraphs/accounts/context.ts';
import { resolvers } from '../../subgraphs/accounts/resolvers.ts';
import { ADMIN_TOKEN, signIn, signInAdmin, wallet } from '../accounts/harness.ts';
import { graphHarness } from './router-harness.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';

let g: GraphHarness;
/** The recorder's clock: minute A, then minute B (A + 1). */
const clock = { now: 0 };
let minuteA: number;
let alice: string;
let bob: string;
let admin: string;
let keyId: string;
let secondKeyId: string;

const codes = (b: GqlBody): unknown[] => (b.errors ?? []).map((e) => e.extensions?.['code']);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let ipCount = 0;
const freshIp = (): string => `10.77.0.${++ipCount}`;

/** A signed-in (or operator) request without an API key, from an address of its own. */
async function asUser(token: string, query: string, variables?: Record<string, unknown>) {
  return g.gql(query, { headers: bearer(token), ip: freshIp(), ...(variables ? { variables } : {}) });
}

/** A request with the API key (a constant address: the key's budget is what counts). */
const withKey = (key: string) => g.gql('{ __typename }', { headers: { 'x-sp-api-key': key } });

const USAGE_FIELDS = 'minute admitted rateLimited unauthorized';

interface UsageEntry {
  minute: string;
  admitted: number;
  rateLimited: number;
  unauthorized: number;
}

/** The entries with any count, as `{ minute (ms): counts }`. */
const nonZero = (series: UsageEntry[]) =>
  Object.fromEntries(
    series
      .filter((e) => e.admitted + e.rateLimited + e.unauthorized > 0)
      .map((e) => [Date.parse(e.minute), [e.admitted, e.rateLimited, e.unauthorized]]),
  );

/** Consecutive minutes, oldest first, ending with the current one (the real clock's). */
function expectWindow(series: UsageEntry[], minutes: number, before: number, after: number): void {
  expect(series).toHaveLength(minutes);
  const times = series.map((e) => Date.parse(e.minute));
  for (let i = 1; i < times.length; i++) expect(times[i]).toBe((times[i - 1] as number) + MINUTE_MS);
  expect(times.at(-1)).toBeGreaterThanOrEqual(minuteOf(before));
  expect(times.at(-1)).toBeLessThanOrEqual(minuteOf(after));
}

beforeAll(async () => {
  minuteA = minuteOf(Date.now()) - 10 * MINUTE_MS;
  clock.now = minuteA + 30_000;
  g = await graphHarness({ usage: { now: () => clock.now, flushIntervalMs: 3_600_000 } });
  admin = (await signInAdmin(g.rest)).token;
  alice = await signIn(g.rest, wallet());
  bob = await signIn(g.rest, wallet());

  // Alice's enterprise key, approved by the operator with a budget of 3 a minute.
  const req = await asUser(
    alice,
    'mutation { requestApiKey(plan: ENTERPRISE, description: "usage chart test") { key apiKey { id } } }',
  );
  expect(req.body.errors).toBeUndefined();
  const created = req.body.data?.['requestApiKey'] as { key: string; apiKey: { id: string } };
  keyId = created.apiKey.id;
  const approved = await asUser(
    ADMIN_TOKEN,
    `mutation { approveApiKey(id: "${keyId}", limitPerMinute: 3) { status } }`,
  );
  expect(approved.body.errors).toBeUndefined();

  // Minute A: three requests admitted.
  for (let i = 0; i < 3; i++) expect((await withKey(created.key)).status).toBe(200);
  // Minute B: the fourth is over the budget (429), then Alice revokes the key and two more are refused (401).
  clock.now += MINUTE_MS;
  const limited = await withKey(created.key);
  expect(limited.status).toBe(429);
  const revoked = await asUser(alice, `mutation { revokeApiKey(id: "${keyId}") { status } }`);
  expect(revoked.body.errors).toBeUndefined();
  for (let i = 0; i < 2; i++) {
    const r = await withKey(created.key);
    expect(r.status).toBe(401);
    expect(codes(r.body)).toEqual(['API_KEY_REVOKED']);
  }
  // A second key of Alice's, never used (pending).
  const second = await asUser(
    alice,
    'mutation { requestApiKey(plan: FREE, description: "second key") { apiKey { id } } }',
  );
  secondKeyId = (second.body.data?.['requestApiKey'] as { apiKey: { id: string } }).apiKey.id;
}, 180_000);
afterAll(async () => {
  await g?.close();
});

describe('ApiKey.usage', () => {
  it("shows the owner each minute of a key's requests: admitted, 429 and 401 in the minute they happened", async () => {
    const before = Date.now();
    const r = await asUser(alice, `{ me { apiKeys { id usage(minutes: 30) { ${USAGE_FIELDS} } } } }`);
    const after = Date.now();
    expect(r.body.errors).toBeUndefined();
    const keys = (r.body.data?.['me'] as { apiKeys: { id: string; usage: UsageEntry[] }[] }).apiKeys;
    const byId = new Map(keys.map((k) => [k.id, k.usage]));
    const used = byId.get(keyId) as UsageEntry[];
    expectWindow(used, 30, before, after);
    expect(nonZero(used)).toEqual({
      [minuteA]: [3, 0, 0],
      [minuteA + MINUTE_MS]: [0, 1, 2],
    });
    const unused = byId.get(secondKeyId) as UsageEntry[];
    expectWindow(unused, 30, before, after);
    expect(nonZero(unused)).toEqual({});
  });

  it('gives the last hour of one key through apiKey(id), as the portal asks it', async () => {
    const before = Date.now();
    const r = await asUser(
      alice,
      `query ($id: ID!) { apiKey(id: $id) { usage(minutes: 60) { ${USAGE_FIELDS} } } }`,
      { id: keyId },
    );
    expect(r.body.errors).toBeUndefined();
    const series = (r.body.data?.['apiKey'] as { usage: UsageEntry[] }).usage;
    expectWindow(series, 60, before, Date.now());
    expect(nonZero(series)).toEqual({ [minuteA]: [3, 0, 0], [minuteA + MINUTE_MS]: [0, 1, 2] });
    expect(r.body.extensions?.['cost']).toMatchObject({ estimated: 61 });
  });

  it("costs per minute asked: every key's last five hours at once are over the keyless ceiling", async () => {
    const r = await asUser(alice, `{ me { apiKeys { usage(minutes: 300) { ${USAGE_FIELDS} } } } }`);
    expect(codes(r.body)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    // me 1 + 10 keys (assumed) × (1 + 300 minutes).
    expect(r.body.extensions?.['cost'] ?? r.body.errors?.[0]?.extensions?.['cost']).toMatchObject({
      estimated: 3_011,
      max: 2_500,
    });
  });

  it('is shown to administrators and the operator for any key', async () => {
    for (const token of [admin, ADMIN_TOKEN]) {
      const r = await asUser(token, `{ apiKey(id: "${keyId}") { usage(minutes: 15) { ${USAGE_FIELDS} } } }`);
      expect(r.body.errors).toBeUndefined();
      const series = (r.body.data?.['apiKey'] as { usage: UsageEntry[] }).usage;
      expect(series).toHaveLength(15);
      expect(nonZero(series)).toEqual({ [minuteA]: [3, 0, 0], [minuteA + MINUTE_MS]: [0, 1, 2] });
    }
  });

  it('is out of reach for another account: the key is null (the accounts convention) and its usage FORBIDDEN', async () => {
    const r = await asUser(bob, `{ apiKey(id: "${keyId}") { id usage { minute } } }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ apiKey: null });

    // The resolver's own rule, for a key parent reached some other way.
    const accounts = g.subgraphs.find((s) => s.name === 'accounts');
    const ctx = (await accounts?.contextFor({ headers: bearer(bob) })) as AccountsContext;
    const usage = resolvers.ApiKey?.usage as unknown as (
      parent: unknown,
      args: { minutes: number },
      ctx: AccountsContext,
    ) => Promise<KeyUsageMinute[]>;
    const parent = { id: keyId, ownerId: 'someone-else' };
    await expect(usage(parent, { minutes: 60 }, ctx)).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    const anonymous = (await accounts?.contextFor({ headers: {} })) as AccountsContext;
    await expect(usage(parent, { minutes: 60 }, anonymous)).rejects.toMatchObject({
      extensions: { code: 'AUTH_REQUIRED' },
    });
  });

  it('refuses a window outside 1–1440 minutes', async () => {
    // (1441 minutes is also over the keyless cost ceiling, refused before the resolver: see serviceStats below.)
    for (const minutes of [0, -1]) {
      const r = await asUser(alice, `{ apiKey(id: "${keyId}") { usage(minutes: ${minutes}) { minute } } }`);
      expect(codes(r.body)).toEqual(['INVALID_PARAMETER']);
      expect(r.body.errors?.[0]?.message).toMatch(/minutes/);
    }
  });

  it('reads every key of a request in one batch (one read of the statistics)', async () => {
    const spy = vi.spyOn(g.usage as UsageRecorder, 'keyUsageMany');
    try {
      const r = await asUser(
        alice,
        `{ me { apiKeys { id a: usage(minutes: 5) { minute } b: usage(minutes: 30) { admitted } } } }`,
      );
      expect(r.body.errors).toBeUndefined();
      expect(spy).toHaveBeenCalledTimes(1);
      expect([...(spy.mock.calls[0]?.[0] ?? [])].sort()).toEqual([keyId, secondKeyId].sort());
      const keys = (
        r.body.data?.['me'] as { apiKeys: { id: string; a: unknown[]; b: { admitted: number }[] }[] }
      ).apiKeys;
      const used = keys.find((k) => k.id === keyId);
      expect(used?.a).toHaveLength(5);
      expect(used?.b.reduce((n, e) => n + e.admitted, 0)).toBe(3);
    } finally {
      spy.mockRestore();
    }
  });
});

const STATS = `query ($minutes: Int!) {
  serviceStats(minutes: $minutes) {
    from
    to
    perPlan { minute plan requests clientErrors serverErrors rateLimited unauthorized }
    costHistogram { upTo count }
  }
}`;

interface Stats {
  from: string;
  to: string;
  perPlan: {
    minute: string;
    plan: string;
    requests: number;
    clientErrors: number;
    serverErrors: number;
    rateLimited: number;
    unauthorized: number;
  }[];
  costHistogram: { upTo: number | null; count: number }[];
}

async function stats(token = admin, minutes = 60): Promise<Stats & { cost: number }> {
  const r = await asUser(token, STATS, { minutes });
  expect(r.body.errors).toBeUndefined();
  const cost = (r.body.extensions?.['cost'] as { estimated: number }).estimated;
  return { ...(r.body.data?.['serviceStats'] as Stats), cost };
}

const bucket = (s: Stats, upTo: number | null): number =>
  s.costHistogram.find((b) => b.upTo === upTo)?.count ?? Number.NaN;

describe('serviceStats', () => {
  it('shows administrators the requests per minute and plan, with the refusals', async () => {
    const s = await stats();
    expect(Date.parse(s.to) - Date.parse(s.from)).toBeGreaterThanOrEqual(59 * MINUTE_MS);
    expect(Date.parse(s.to) - Date.parse(s.from)).toBeLessThan(60 * MINUTE_MS);
    const enterprise = s.perPlan.filter((p) => p.plan === 'enterprise');
    expect(enterprise).toEqual([
      {
        minute: new Date(minuteA).toISOString(),
        plan: 'enterprise',
        requests: 3,
        clientErrors: 0,
        serverErrors: 0,
        rateLimited: 0,
        unauthorized: 0,
      },
      {
        minute: new Date(minuteA + MINUTE_MS).toISOString(),
        plan: 'enterprise',
        requests: 3,
        clientErrors: 0,
        serverErrors: 0,
        rateLimited: 1,
        unauthorized: 2,
      },
    ]);
    // Everything else was keyless (sessions and the operator token are no API keys); oldest first.
    expect(new Set(s.perPlan.map((p) => p.plan))).toEqual(new Set(['enterprise', 'keyless']));
    const minutes = s.perPlan.map((p) => Date.parse(p.minute));
    expect([...minutes].sort((a, b) => a - b)).toEqual(minutes);
    const keyless = s.perPlan.filter((p) => p.plan === 'keyless');
    // The operation refused for its cost is a 400 (field errors, such as a bad `minutes`, answer 200).
    expect(keyless.reduce((n, p) => n + p.clientErrors, 0)).toBeGreaterThanOrEqual(1);
    // The operator sees the same.
    expect((await stats(ADMIN_TOKEN)).perPlan.filter((p) => p.plan === 'enterprise')).toEqual(enterprise);
  });

  it('gives the query-cost histogram: every bucket in order, the last one open', async () => {
    const first = await stats();
    expect(first.costHistogram.map((b) => b.upTo)).toEqual([
      0,
      10,
      50,
      100,
      250,
      500,
      1000,
      2500,
      5000,
      10000,
      20000,
      null,
    ]);
    // `{ __typename }` costs 0: the key's six requests reached validation only when admitted (three).
    expect(bucket(first, 0)).toBeGreaterThanOrEqual(3);
    // Since then: the statistics query itself (counted once answered) and one more operation.
    expect(first.cost).toBe(257);
    const coins = await g.gql('{ coins(first: 100) { edges { node { id } } } }', { ip: freshIp() });
    const coinsCost = (coins.body.extensions?.['cost'] as { estimated: number }).estimated;
    expect(costBucket(coinsCost)).not.toBe(costBucket(first.cost));
    const second = await stats();
    const diff = second.costHistogram.map((b, i) => b.count - (first.costHistogram[i]?.count ?? 0));
    const expected = new Array<number>(COST_BUCKETS.length + 1).fill(0);
    expected[costBucket(first.cost)] = 1;
    expected[costBucket(coinsCost)] = 1;
    expect(diff).toEqual(expected);
  });

  it('is for administrators and the operator only', async () => {
    const user = await asUser(alice, STATS, { minutes: 60 });
    expect(codes(user.body)).toEqual(['FORBIDDEN']);
    expect(user.body.data).toBeNull();
    const nobody = await g.gql(STATS, { variables: { minutes: 60 }, ip: freshIp() });
    expect(codes(nobody.body)).toEqual(['AUTH_REQUIRED']);
    const wide = await asUser(admin, STATS, { minutes: 1441 });
    expect(codes(wide.body)).toEqual(['INVALID_PARAMETER']);
  });
});
