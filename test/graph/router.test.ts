import { afterAll, beforeAll, it } from 'vitest';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';

let g: GraphHarness;
beforeAll(async () => {
  const t = Date.now();
  g = await graphHarness();
  console.log('harness ms', Date.now() - t);
}, 120_000);
afterAll(async () => {
  await g?.close();
});

it('probe', async () => {
  const show = (r: unknown) => console.log(JSON.stringify(r, null, 1).slice(0, 3000));
  show(await g.gql('{ coins(first: 3) { edges { node { id marketCap price } } } bridge { coins { ticker coin { id name } } } }'));
  show(await g.gql('{ coin(id: "litecoin") { id } }', { headers: { 'x-sp-api-key': 'cw_live_nope' } }));
  show(await g.gql('{ coin(id: "litecoin") { id chart(days: 1) { points { time } } } }'));
  show(await g.gql('{ coins(first: 250) { edges { node { id sparkline7d chart(days: 3) { points { price } } } } } }'));
  show(await g.gql('mutation { registerName(name: "x.coin") { name } }'));
  const r = await g.app.inject({ method: 'GET', url: '/graphql/health' });
  show({ s: r.statusCode, b: r.body });
}, 60_000);
