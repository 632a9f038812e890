/**
 * The benchmark's tables, per workload (varied, identical): requests/s with p50/p99 and the ratios to the vanilla
 * gateway and to Hive with the Rust planner with and without its fetch dedup (the median round), then each process's
 * CPU time per response (medians of the rounds), then the targets for the varied workload.
 */
import type { QueryName, Variant, Workload } from './config.ts';
import { CONNECTIONS, DURATION, embeddedVariant, KEYS, LABEL, ROUNDS, WARMUP } from './config.ts';
import type { Row } from './load.ts';
import type { VariedName } from './workload.ts';

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;

/** The operations run under one workload. */
export interface Section {
  workload: Workload;
  queries: readonly (QueryName | VariedName)[];
}

/**
 * Prints the tables of `results` (`"<workload> <variant> <query>"` → one row per round); `load1` is the load average
 * now.
 */
export function printReport(
  results: ReadonlyMap<string, Row[]>,
  sections: readonly Section[],
  variants: readonly Variant[],
  load1: () => string | undefined,
): void {
  console.log(
    `\n${DURATION} s per run after ${WARMUP} s warm-up, ${CONNECTIONS} connections, ${ROUNDS} round(s) interleaved, median round shown; ${KEYS} enterprise keys rotating; load average now ${load1()}`,
  );
  const pick = (k: string): Row | undefined => {
    const rows = results.get(k);
    if (!rows) return undefined;
    const m = median(rows.map((r) => r.rps));
    return rows.find((r) => r.rps === m);
  };
  // CPU time per response: what each process spent, whatever else the machine was running (medians of rounds).
  const cpuOf = (k: string) => {
    const rows = results.get(k);
    if (!rows) return undefined;
    return {
      gateway: median(rows.map((r) => r.cpu.gateway)),
      subgraphs: median(rows.map((r) => r.cpu.subgraphs)),
      total: median(rows.map((r) => r.cpu.gateway + r.cpu.subgraphs)),
      client: median(rows.map((r) => r.cpu.client)),
    };
  };
  const times = (a: number | undefined, b: number | undefined, digits = 2) =>
    a !== undefined && b !== undefined ? `${(a / b).toFixed(digits)}×` : '–';

  for (const { workload: w, queries } of sections) {
    console.log(
      `\n${w === 'varied' ? 'VARIED bodies (variables drawn per request)' : 'IDENTICAL bodies (one per operation)'}`,
    );
    console.log(
      `variant | query | req/s | p50 / p99 ms | × vanilla | × Hive + Rust | × Hive + Rust, no dedup | × ours | ${w === 'varied' ? 'mismatches | distinct bodies | ' : ''}req/s per round`,
    );
    for (const q of queries)
      for (const v of variants) {
        const r = pick(`${w} ${v} ${q}`);
        if (!r) continue;
        const ratio = (base: Variant) => times(r.rps, pick(`${w} ${base} ${q}`)?.rps);
        const all = results.get(`${w} ${v} ${q}`) ?? [];
        const rounds = all.map((x) => x.rps.toFixed(0)).join(', ');
        const checks =
          w === 'varied'
            ? `${all.map((x) => x.mismatches + x.non2xx + x.errors).join(', ')} | ${r.distinct ?? '–'} | `
            : '';
        console.log(
          `${LABEL[v]} | ${q} | ${r.rps.toFixed(0)} | ${r.p50} / ${r.p99} | ${ratio('vanilla')} | ${ratio('hive-rust')} | ${ratio('hive-rust-nodedup')} | ${ratio('ours')} | ${checks}${rounds}`,
        );
      }

    console.log(
      '\nvariant | query | CPU ms/response: gateway | subgraphs | total | responses per CPU-second × vanilla | × Hive + Rust | × Hive + Rust, no dedup | gateway CPU × ours | gateway CPU × ours-unobserved | autocannon CPU ms/response',
    );
    for (const q of queries)
      for (const v of variants) {
        const c = cpuOf(`${w} ${v} ${q}`);
        if (!c) continue;
        const per = (base: Variant) => times(cpuOf(`${w} ${base} ${q}`)?.total, c.total);
        const gw = (base: Variant) =>
          embeddedVariant(v) ? '–' : times(c.gateway, cpuOf(`${w} ${base} ${q}`)?.gateway, 3);
        console.log(
          `${LABEL[v]} | ${q} | ${embeddedVariant(v) ? '(one process)' : c.gateway.toFixed(2)} | ${embeddedVariant(v) ? '' : c.subgraphs.toFixed(2)} | ${c.total.toFixed(2)} | ${per('vanilla')} | ${per('hive-rust')} | ${per('hive-rust-nodedup')} | ${gw('ours')} | ${gw('ours-unobserved')} | ${c.client.toFixed(2)}`,
        );
      }

    if (w !== 'varied') continue;
    // Issue 34's targets, against Hive with the Rust planner and its default fetch dedup.
    console.log(
      '\nvaried workload against Hive + Rust (issue 34: ours ≥ 1.5× req/s and ≤ 0.67× CPU; embedded ≥ 2.5×)',
    );
    for (const q of queries) {
      const hive = pick(`${w} hive-rust ${q}`);
      const hiveCpu = cpuOf(`${w} hive-rust ${q}`);
      if (!hive || !hiveCpu) continue;
      const line = (v: Variant) => {
        const r = pick(`${w} ${v} ${q}`);
        const c = cpuOf(`${w} ${v} ${q}`);
        return r && c ? `${v} ${times(r.rps, hive.rps)} req/s, ${times(c.total, hiveCpu.total)} CPU` : null;
      };
      const parts = (['ours', 'ours-nodedup', 'embedded', 'embedded-uncached'] as const)
        .map(line)
        .filter(Boolean);
      console.log(`${q}: ${parts.join('; ')}`);
    }
  }
}
