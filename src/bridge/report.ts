/** The proof-of-reserves report: pure building from a deployment and chain data, no I/O of its own. */
import type { ChainDataAdapter, ReserveBalance } from './chain-data.ts';
import type { Deployment } from './model.ts';

/** Tag inside every signed report: a signature over it means "this is a Coin Wallet bridge PoR report, v1". */
export const REPORT_SCHEMA = 'coinwallet.bridge.proof-of-reserves/v1';

/** Digits after the point of `ratio`. */
export const RATIO_PLACES = 6;

export interface AssetReserves {
  /** The coin's ticker, e.g. `LKY`; amounts below are in its base units (`decimals`). */
  ticker: string;
  decimals: number;
  reserves: { chain: string; total: string; addresses: ReserveBalance[] };
  /** The wrapped token's supply: what the bridge owes holders. */
  liabilities: { chain: string; ticker: string; mint: string; supply: string; slot: number; time: string };
  /** reserves / liabilities with {@link RATIO_PLACES} digits, rounded down; null when liabilities are 0. */
  ratio: string | null;
}

export interface ReserveReport {
  schema: typeof REPORT_SCHEMA;
  network: string;
  deploymentVersion: string;
  /** `recorded` (demo or test data) or `live`. */
  source: 'recorded' | 'live';
  /** When the snapshot was taken, ISO 8601 UTC. */
  generatedAt: string;
  /** Hex public key of the ed25519 key that signs this report. */
  signer: string;
  assets: AssetReserves[];
}

/** `num / den` as a decimal string with `places` digits, rounded down; null when `den` is 0. */
export function ratio(num: bigint, den: bigint, places = RATIO_PLACES): string | null {
  if (den === 0n) return null;
  const scaled = (num * 10n ** BigInt(places)) / den;
  const s = scaled.toString().padStart(places + 1, '0');
  return places === 0 ? s : `${s.slice(0, -places)}.${s.slice(-places)}`;
}

/** Asks `chain` for every asset's reserve balances and wrapped supply and assembles the (unsigned) report. */
export async function buildReport(
  deployment: Deployment,
  chain: ChainDataAdapter,
  opts: { now: number; signer: string },
): Promise<ReserveReport> {
  const assets: AssetReserves[] = [];
  for (const a of deployment.assets) {
    const balances = await chain.reserveBalances(a.reserveAddresses);
    const supply = await chain.wrappedSupply(a.wrapped.mint);
    const total = balances.reduce((s, b) => s + BigInt(b.balance), 0n);
    assets.push({
      ticker: a.ticker,
      decimals: a.decimals,
      reserves: {
        chain: a.nativeChain,
        total: total.toString(),
        addresses: balances.map((b) => ({
          address: b.address,
          balance: b.balance,
          height: b.height,
          time: b.time,
        })),
      },
      liabilities: {
        chain: a.wrapped.chain,
        ticker: a.wrapped.ticker,
        mint: a.wrapped.mint,
        supply: supply.supply,
        slot: supply.slot,
        time: supply.time,
      },
      ratio: ratio(total, scaleTo(BigInt(supply.supply), a.wrapped.decimals, a.decimals)),
    });
  }
  return {
    schema: REPORT_SCHEMA,
    network: deployment.network,
    deploymentVersion: deployment.version,
    source: chain.source,
    generatedAt: new Date(opts.now).toISOString(),
    signer: opts.signer,
    assets,
  };
}

/** Wrapped base units → the coin's base units (the wrapped token may have fewer decimals). */
function scaleTo(amount: bigint, from: number, to: number): bigint {
  return amount * 10n ** BigInt(to - from);
}

/** The earliest `time` of any reserve balance or wrapped-supply figure in the report (UNIX ms); +∞ when none. */
export function oldestObservation(report: { assets: readonly unknown[] }): number {
  let oldest = Infinity;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'time' && typeof x === 'string') oldest = Math.min(oldest, Date.parse(x) || Infinity);
        else visit(x);
      }
    }
  };
  visit(report.assets);
  return oldest;
}
