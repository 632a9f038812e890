/**
 * The benchmark's tables: requests/s with p50/p99 and the ratios to the vanilla gateway and to Hive with the Rust
 * planner (the median round), then each process's CPU time per response (medians of the rounds).
 */
import type { QueryName, Variant } from './config.ts';
import { CONNECTIONS, DURATION, embeddedVariant, KEYS, LABEL, ROUNDS, WARMUP } from './config.ts';
import type { Row } from './load.ts';

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;

/** Prints the tables of `results` (`"<variant> <query>"` → one row per round); `load1` is the load average now. */
export function printReport(
  results: ReadonlyMap<string, Row[]>,
  queries: readonly QueryName[],
  variants: readonly Variant[],
  load1: () => string | undefined,
): void {
  console.log(
    `\n${DURATION} s per run after ${WARMUP} s warm-up, ${CONNECTIONS} connections, ${ROUNDS} round(s) interleaved, median round shown; ${KEYS} enterprise keys rotating; load average now ${load1()}`,
  );
  console.log(
    'variant | query | req/s | p50 / p99 ms | × vanilla | × Hive Gateway + Rust planner | × ours | req/s per round',
  );
  const pick = (k: string): Row | undefined => {
    const rows = results.get(k);
    if (!rows) return undefined;
    const m = median(rows.map((r) => r.rps));
    return rows.find((r) => r.rps === m);
  };
  for (const q of queries)
    for (const v of variants) {
      const r = pick(`${v} ${q}`) as Row;
      const ratio = (base: Variant) => {
        const b = pick(`${base} ${q}`);
        return b ? `${(r.rps / b.rps).toFixed(2)}×` : '–';
      };
      const rounds = (results.get(`${v} ${q}`) ?? []).map((x) => x.rps.toFixed(0)).join(', ');
      console.log(
        `${LABEL[v]} | ${q} | ${r.rps.toFixed(0)} | ${r.p50} / ${r.p99} | ${ratio('vanilla')} | ${ratio('hive-rust')} | ${ratio('ours')} | ${rounds}`,
      );
    }

  // CPU time per response: what each process spent, whatever else the machine was running (medians of rounds).
  const cpuOf = (k: string) => {
    const rows = results.get(k);
    if (!rows) return undefined;
    const gateway = median(rows.map((r) => r.cpu.gateway));
    const subgraphs = median(rows.map((r) => r.cpu.subgraphs));
    return {
      gateway,
      subgraphs,
      total: median(rows.map((r) => r.cpu.gateway + r.cpu.subgraphs)),
      client: median(rows.map((r) => r.cpu.client)),
    };
  };
  console.log(
    '\nvariant | query | CPU ms/response: gateway | subgraphs | total | responses per CPU-second × vanilla | × Hive + Rust | gateway CPU × ours | gateway CPU × ours-unobserved | autocannon CPU ms/response',
  );
  for (const q of queries)
    for (const v of variants) {
      const c = cpuOf(`${v} ${q}`);
      const base = cpuOf(`vanilla ${q}`);
      const hive = cpuOf(`hive-rust ${q}`);
      const ours = cpuOf(`ours ${q}`);
      const quiet = cpuOf(`ours-unobserved ${q}`);
      if (!c) continue;
      console.log(
        `${LABEL[v]} | ${q} | ${embeddedVariant(v) ? '(one process)' : c.gateway.toFixed(2)} | ${embeddedVariant(v) ? '' : c.subgraphs.toFixed(2)} | ${c.total.toFixed(2)} | ${base ? `${(base.total / c.total).toFixed(2)}×` : '–'} | ${hive ? `${(hive.total / c.total).toFixed(2)}×` : '–'} | ${ours && !embeddedVariant(v) ? `${(c.gateway / ours.gateway).toFixed(3)}×` : '–'} | ${quiet && !embeddedVariant(v) ? `${(c.gateway / quiet.gateway).toFixed(3)}×` : '–'} | ${c.client.toFixed(2)}`,
      );
    }
}
