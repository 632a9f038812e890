/**
 * The configuration reader imports no area (src/config.ts, eslint.config.js), so the names its variables may hold
 * and the defaults it shares with an area are its own copies: each is held equal to the area's here.
 */
import { describe, expect, it } from 'vitest';
import { API_BUCKETS } from '../../src/access/api-limits.ts';
import { PLANS } from '../../src/access/plans.ts';
import {
  CONFIG_API_BUCKETS,
  CONFIG_PLANS,
  CONFIG_SUBGRAPHS,
  DEFAULT_NAME_SUFFIX,
  loadConfig,
} from '../../src/config.ts';
import { DEFAULT_NAME_SUFFIX as NAMES_DEFAULT_SUFFIX } from '../../src/names/name-rules.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/shared/subgraph.ts';

describe("the configuration's vocabularies are the areas'", () => {
  it('plans: keyless and the plans of src/access/plans.ts', () => {
    expect([...CONFIG_PLANS].sort()).toEqual(['keyless', ...PLANS].sort());
  });

  it('/api buckets: those of src/access/api-limits.ts, in their order', () => {
    expect(CONFIG_API_BUCKETS).toEqual(API_BUCKETS);
  });

  it('subgraphs: those of subgraphs/shared/subgraph.ts, in their order', () => {
    expect(CONFIG_SUBGRAPHS).toEqual(SUBGRAPH_NAMES);
  });

  it("NAME_SUFFIX's default is the names domain's", () => {
    expect(DEFAULT_NAME_SUFFIX).toBe(NAMES_DEFAULT_SUFFIX);
    expect(loadConfig({}).nameSuffix).toBe(NAMES_DEFAULT_SUFFIX);
  });
});
