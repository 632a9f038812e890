/**
 * The plan table (src/access/plans.ts): every per-plan figure as it was published, the plan lists and per-figure
 * views read from it, and the per-plan tables of docs/plans-and-limits.md and docs/query-cost.md held to it cell by
 * cell, so a figure changed in one place and not the other fails here. (test/docs/stated-numbers.test.ts holds the
 * README's sentences.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CALLER_PLANS,
  CONCURRENCY_LIMITS,
  CONCURRENCY_QUEUE,
  COST_BUDGETS,
  ENTERPRISE_MAX_PER_MINUTE,
  GRAPH_BODY_LIMITS,
  isPlan,
  KEYLESS_PER_MINUTE,
  PLAN_LIMITS,
  PLAN_TABLE,
  PLANS,
  SUBSCRIPTION_IDS,
  SUBSCRIPTION_STREAMS,
} from '../../src/access/plans.ts';
import type { CallerPlan, PlanFigures } from '../../src/access/plans.ts';
import { DEFAULT_COST_LIMITS } from '../../router/plugins/query-cost.ts';
import { PLAN_COLORS, PLAN_ORDER } from '../../src/web/pages/admin/logic.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const KIB = 1024;

describe('the plan table', () => {
  it('holds the published figures', () => {
    expect(PLAN_TABLE).toEqual({
      keyless: {
        perMinute: 240,
        costBudget: 5_000,
        costCeiling: 2_500,
        concurrency: 6,
        queue: 64,
        graphBodyBytes: 64 * KIB,
        streams: 2,
        idsPerStream: 25,
      },
      free: {
        perMinute: 600,
        costBudget: 20_000,
        costCeiling: 5_000,
        concurrency: 8,
        queue: 64,
        graphBodyBytes: 256 * KIB,
        streams: 10,
        idsPerStream: 100,
      },
      pro: {
        perMinute: 3_000,
        costBudget: 150_000,
        costCeiling: 10_000,
        concurrency: 32,
        queue: 256,
        graphBodyBytes: 1024 * KIB,
        streams: 100,
        idsPerStream: 250,
      },
      enterprise: {
        perMinute: 10_000,
        costBudget: 1_000_000,
        costCeiling: 25_000,
        concurrency: 64,
        queue: 512,
        graphBodyBytes: 1024 * KIB,
        streams: 1_000,
        idsPerStream: 250,
      },
    });
  });

  it('the plan lists are its rows: keyless first, a key on any other', () => {
    expect(CALLER_PLANS).toEqual(['keyless', 'free', 'pro', 'enterprise']);
    expect(PLANS).toEqual(['free', 'pro', 'enterprise']);
    expect(CALLER_PLANS.filter(isPlan)).toEqual(PLANS);
  });

  it("the admin charts' copy (browser code imports no src/access) lists its rows, a colour each", () => {
    expect(PLAN_ORDER).toEqual(CALLER_PLANS);
    expect(Object.keys(PLAN_COLORS).sort()).toEqual([...CALLER_PLANS].sort());
  });

  it('each per-figure view is its column', () => {
    const column = (name: keyof PlanFigures) =>
      Object.fromEntries(CALLER_PLANS.map((p) => [p, PLAN_TABLE[p][name]]));
    expect(COST_BUDGETS).toEqual(column('costBudget'));
    expect(DEFAULT_COST_LIMITS).toEqual(column('costCeiling'));
    expect(CONCURRENCY_LIMITS).toEqual(column('concurrency'));
    expect(CONCURRENCY_QUEUE).toEqual(column('queue'));
    expect(GRAPH_BODY_LIMITS).toEqual(column('graphBodyBytes'));
    expect(SUBSCRIPTION_STREAMS).toEqual(column('streams'));
    expect(SUBSCRIPTION_IDS).toEqual(column('idsPerStream'));
    const { keyless, ...keyed } = column('perMinute');
    expect([KEYLESS_PER_MINUTE, PLAN_LIMITS]).toEqual([keyless, keyed]);
  });
});

/** The plan a docs table's first cell names: `no key` or `keyless`, else the plan, with or without backticks. */
function planOfCell(cell: string): CallerPlan | undefined {
  const name = cell.replace(/`/g, '').trim();
  if (name === 'no key' || name === 'keyless') return 'keyless';
  return isPlan(name) ? name : undefined;
}

/**
 * The rows of the markdown table in `file` whose header row starts with `header`: per plan, the first number of
 * each cell after the plan's (`1,000,000, or as agreed` → 1000000); a cell without a number (`key`) is skipped.
 */
function docTable(file: string, header: string): Partial<Record<CallerPlan, number[]>> {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith(header));
  expect(at, `${file}: no table headed ${JSON.stringify(header)}`).toBeGreaterThanOrEqual(0);
  const rows: Partial<Record<CallerPlan, number[]>> = {};
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    const [first = '', ...cells] = line.split('|').slice(1, -1);
    const plan = planOfCell(first);
    const numbers = cells.map((c) => /\d[\d,]*/.exec(c)?.[0].replace(/,/g, ''));
    if (plan) rows[plan] = numbers.filter((n) => n !== undefined).map(Number);
  }
  return rows;
}

const fromTable = (...names: (keyof PlanFigures)[]) =>
  Object.fromEntries(CALLER_PLANS.map((p) => [p, names.map((n) => PLAN_TABLE[p][n])]));

describe('the docs state the table', () => {
  it('plans-and-limits.md: cost budget, requests in flight and waiting', () => {
    expect(docTable('docs/plans-and-limits.md', '| plan         | query cost per minute')).toEqual(
      fromTable('costBudget', 'concurrency', 'queue'),
    );
  });

  it('plans-and-limits.md: open subscriptions and coins per subscription', () => {
    expect(docTable('docs/plans-and-limits.md', '| plan         | open subscriptions')).toEqual(
      fromTable('streams', 'idsPerStream'),
    );
  });

  it('plans-and-limits.md: requests per minute (enterprise: up to its most, by agreement)', () => {
    const { enterprise, ...others } = docTable(
      'docs/plans-and-limits.md',
      '| plan         | requests per minute',
    );
    const { enterprise: _, ...table } = fromTable('perMinute');
    expect(others).toEqual(table);
    const text = readFileSync(join(ROOT, 'docs/plans-and-limits.md'), 'utf8');
    const most = /\| `enterprise` \| set per key by agreement, 1 to ([\d,]+) /.exec(text)?.[1];
    expect([enterprise, Number(most?.replace(/,/g, ''))]).toEqual([[1], ENTERPRISE_MAX_PER_MINUTE]);
  });

  it('plans-and-limits.md: graph request bodies', () => {
    const text = readFileSync(join(ROOT, 'docs/plans-and-limits.md'), 'utf8').replace(/\s+/g, ' ');
    const m =
      /(\d+) KiB without a key, (\d+) KiB on `free`, (\d+) MiB \(the server's limit\) on `pro` and `enterprise`/.exec(
        text,
      );
    expect(m, 'the sentence on graph request bodies was reworded: update this test').not.toBeNull();
    const [, keyless, free, proAndEnterprise] = (m ?? []).map(Number);
    expect({ keyless: keyless! * KIB, free: free! * KIB, pro: proAndEnterprise! * KIB * KIB }).toEqual({
      keyless: PLAN_TABLE.keyless.graphBodyBytes,
      free: PLAN_TABLE.free.graphBodyBytes,
      pro: PLAN_TABLE.pro.graphBodyBytes,
    });
    expect(PLAN_TABLE.enterprise.graphBodyBytes).toBe(proAndEnterprise! * KIB * KIB);
  });

  it('query-cost.md: the ceilings', () => {
    expect(docTable('docs/query-cost.md', '| plan (from the API key')).toEqual(fromTable('costCeiling'));
  });
});
