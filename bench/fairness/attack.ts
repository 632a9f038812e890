/**
 * One abusive caller of the fairness benchmark (`bench/fairness.bench.ts`), in its own process so that its work —
 * autocannon's sockets, a 1 MB body built per request — never delays the light client it is measured against:
 * `node bin/run-ts.js bench/fairness/attack.ts '<Attack as JSON>'` prints its answers counted by status as JSON.
 */
import autocannon from 'autocannon';

export interface Attack {
  scenario: 'pro-heavy' | 'sign-in-flood' | 'cache-bloat' | 'document-bloat';
  base: string;
  seconds: number;
  /** `X-Forwarded-For` of the attacker (the server believes loopback). */
  ip: string;
  /** The pro key (`pro-heavy`). */
  key: string;
  /** The pro key's costliest allowed query (`pro-heavy`). */
  heavy: string;
  /** The cached query the junk variables ride on (`cache-bloat`). */
  cached: string;
}

function options(a: Attack): autocannon.Options {
  const json = { 'content-type': 'application/json', 'x-forwarded-for': a.ip };
  if (a.scenario === 'pro-heavy')
    return {
      url: `${a.base}/graphql`,
      method: 'POST',
      connections: 20,
      duration: a.seconds,
      headers: { ...json, 'x-sp-api-key': a.key },
      body: JSON.stringify({ query: a.heavy }),
    };
  if (a.scenario === 'sign-in-flood')
    return {
      url: `${a.base}/api/auth/session`,
      method: 'POST',
      connections: 8,
      duration: a.seconds,
      headers: json,
      body: JSON.stringify({
        address: 'ltc1qg82tnv2ppmc0m5fvsj7rwzgxprvlv8kqd6p4xh',
        signature: 'H'.padEnd(88, 'A'),
      }),
    };
  /** Keyless graph queries, 4 at a time, each body (and its headers) made for the `i`-th request. */
  const varied = (request: (i: number) => { headers: Record<string, string>; body: string }) => {
    let i = 0;
    return {
      url: `${a.base}/graphql`,
      method: 'POST' as const,
      connections: 4,
      duration: a.seconds,
      requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...request(i++) }) }],
    };
  };
  if (a.scenario === 'document-bloat') {
    // Distinct documents (a comment makes each one new) of 2,000 fields, as many as the limits allow, each from a
    // client address of its own: many clients behind one proxy, every one within its keyless budget.
    const fields = Array.from({ length: 1_990 }, () => 'id').join(' ');
    return varied((i) => ({
      headers: { ...json, 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      body: JSON.stringify({ query: `# ${i}\n{ coin(id: "bitcoin") { ${fields} } }` }),
    }));
  }
  const junk = 'x'.repeat(1_000_000);
  return varied((i) => ({
    headers: json,
    body: JSON.stringify({ query: a.cached, variables: { [`junk${i}`]: junk } }),
  }));
}

const attack = JSON.parse(process.argv[2] ?? '{}') as Attack;
const r = await autocannon(options(attack));
process.stdout.write(
  JSON.stringify({ '2xx': r['2xx'], non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts }) + '\n',
);
