/**
 * The start-up's data work, differentially: a demo first start (the dataset generated and aggregated into an empty
 * store, the first tick, the rollup) and a restart an hour later leave exactly the store and the engine state the
 * code before the start-up rework left. `first-start-digests.json` was recorded from that code (commit 70c888f, where
 * the dataset went through `recording.jsonl.gz` and was written every 100 snapshots); one bar, ticker, supply record,
 * FX rate or log row that differed in one bit would change a digest. The `ingest_log` entries alone were recorded again
 * when the snapshot digest became `2:` (`src/ingest/digest.ts`): the same rows, each snapshot's new digest. The
 * `supply_latest` entries (a table that code did not have) were recorded from the code that added it, each checked when
 * recorded to hold exactly `DISTINCT ON (asset, kind, source)` of that moment's `supply_records`, whose own entries are
 * still those of 70c888f.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StartDigests } from '../support/first-start.ts';
import { runStarts, SCENARIOS } from '../support/first-start.ts';

const RECORDED = JSON.parse(
  readFileSync(new URL('./first-start-digests.json', import.meta.url), 'utf8'),
) as Record<string, { first: StartDigests; restart: StartDigests }>;

describe('start-up data work against the recorded digests', () => {
  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    it(`${name}: the same store, state and snapshot after a first start and after a restart from the history cache`, async () => {
      const got = await runStarts(scenario, { cache: true });
      expect(got.fromCache).toBe(true);
      expect(got.first).toEqual(RECORDED[name]?.first);
      expect(got.restart).toEqual(RECORDED[name]?.restart);
    }, 120_000);
  }

  it('few assets, 100 days: the same when the history is stored after start-up (storeLater, as the product does)', async () => {
    const name = 'few assets, 100 days';
    const got = await runStarts(SCENARIOS[name]!, { storeLater: true, cache: true });
    expect(got.fromCache).toBe(true);
    expect(got).toMatchObject({ first: RECORDED[name]?.first, restart: RECORDED[name]?.restart });
  }, 120_000);

  it('few assets, 100 days: the same after a restart that reads everything from the store', async () => {
    const name = 'few assets, 100 days';
    const got = await runStarts(SCENARIOS[name]!, { cache: false });
    expect(got.fromCache).toBe(false);
    expect(got).toMatchObject({ first: RECORDED[name]?.first, restart: RECORDED[name]?.restart });
  }, 120_000);
});
