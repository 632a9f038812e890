/**
 * The hand-written validator of deployment files. Every failure is a `DeploymentError` whose message is
 * `<file>: <field path> <what it must be>`, e.g. `config/bridge/mainnet.json: lanes[1].fees.percent must be a
 * number from 0 to 100`. Unknown fields are errors too, so a typo never passes silently. It stops at the first error.
 */
import { isSolanaKey, isUtxoAddress, KNOWN_UTXO_PARAMS, SOLANA_CLUSTERS } from './addresses.ts';
import type { BridgeAsset, Chain, Deployment, Lane, Network, SolanaChain, UtxoChain } from './model.ts';
import { at, Reader } from './field-reader.ts';
import type { Obj } from './field-reader.ts';

const ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
const TICKER = /^[A-Za-z][A-Za-z0-9]{0,11}$/;
const HEX32 = /^[0-9a-f]{64}$/;

/** Validates parsed JSON as a deployment; `file` names it in messages. */
export function parseDeployment(json: unknown, file: string): Deployment {
  const r = new Reader(file);
  const o = r.obj(
    json,
    '',
    ['network', 'version', 'chains', 'assets', 'lanes', 'attestation'],
    ['label', '$comment'],
  );
  const network = r.oneOf<Network>(o.network, 'network', ['testnet', 'mainnet']);
  const version = r.str(o.version, 'version');
  const label = o.label === undefined ? '' : r.str(o.label, 'label');

  const chains = r.arr(o.chains, 'chains').map((c, i) => chain(r, c, `chains[${i}]`, network));
  r.unique(
    chains.map((c) => c.id),
    (i) => `chains[${i}].id`,
    'the chain id',
  );

  const assets = r.arr(o.assets, 'assets').map((a, i) => asset(r, a, `assets[${i}]`, chains));
  r.unique(
    assets.map((a) => a.ticker),
    (i) => `assets[${i}].ticker`,
    'the ticker',
  );

  const lanes = r.arr(o.lanes, 'lanes').map((l, i) => lane(r, l, `lanes[${i}]`, assets, chains));
  r.unique(
    lanes.map((l) => l.id),
    (i) => `lanes[${i}].id`,
    'the lane id',
  );
  r.unique(
    lanes.map((l) => `${l.asset} ${l.direction}`),
    (i) => `lanes[${i}]`,
    'the asset and direction',
  );

  const att = r.obj(o.attestation, 'attestation', ['publicKey']);
  const pk = r.str(
    att.publicKey,
    'attestation.publicKey',
    /^(from-secret|[0-9a-f]{64})$/,
    '"from-secret" or a 32-byte ed25519 public key in lowercase hex',
  );
  if (pk === 'from-secret' && network === 'mainnet') {
    r.fail(
      'attestation.publicKey',
      'must be pinned (64 hex digits) on mainnet: "from-secret" is for testnet and demos',
    );
  }
  return {
    network,
    version,
    label,
    chains,
    assets,
    lanes,
    attestation: { publicKey: HEX32.test(pk) ? pk : null },
    source: file,
  };
}

function chain(r: Reader, v: unknown, path: string, network: Network): Chain {
  const kind = r.oneOf<Chain['kind']>((v as Obj | null)?.kind, at(path, 'kind'), ['utxo', 'solana']);
  if (kind === 'utxo') {
    const o = r.obj(v, path, ['id', 'kind', 'name', 'ticker', 'p2pkh', 'p2sh']);
    const c: UtxoChain = {
      id: r.str(o.id, at(path, 'id'), ID, 'a lowercase slug such as "luckycoin-testnet"'),
      kind,
      name: r.str(o.name, at(path, 'name')),
      ticker: r.str(o.ticker, at(path, 'ticker'), TICKER, 'a ticker such as LKY'),
      p2pkh: r.int(o.p2pkh, at(path, 'p2pkh'), 0, 255),
      p2sh: r.arr(o.p2sh, at(path, 'p2sh')).map((x, i) => r.int(x, at(at(path, 'p2sh'), i), 0, 255)),
    };
    const known = KNOWN_UTXO_PARAMS[c.ticker]?.[network];
    if (known && c.p2pkh !== known.p2pkh)
      r.fail(at(path, 'p2pkh'), `must be ${known.p2pkh} for ${c.ticker} on ${network}`);
    if (known && c.p2sh.join() !== known.p2sh.join()) {
      r.fail(at(path, 'p2sh'), `must be [${known.p2sh.join(', ')}] for ${c.ticker} on ${network}`);
    }
    return c;
  }
  const o = r.obj(v, path, ['id', 'kind', 'name', 'cluster', 'bridgeProgram']);
  const c: SolanaChain = {
    id: r.str(o.id, at(path, 'id'), ID, 'a lowercase slug such as "solana-devnet"'),
    kind,
    name: r.str(o.name, at(path, 'name')),
    cluster: r.oneOf(o.cluster, at(path, 'cluster'), SOLANA_CLUSTERS[network] as SolanaChain['cluster'][]),
    bridgeProgram: r.str(o.bridgeProgram, at(path, 'bridgeProgram'), undefined),
  };
  if (!isSolanaKey(c.bridgeProgram))
    r.fail(at(path, 'bridgeProgram'), 'must be a base58 Solana program id (32 bytes)');
  return c;
}

function asset(r: Reader, v: unknown, path: string, chains: Chain[]): BridgeAsset {
  const o = r.obj(v, path, ['ticker', 'name', 'decimals', 'nativeChain', 'wrapped', 'reserveAddresses']);
  const native = chainRef(r, o.nativeChain, at(path, 'nativeChain'), chains, 'utxo');
  const ticker = r.str(o.ticker, at(path, 'ticker'), TICKER, 'a ticker such as LKY');
  if (ticker !== native.ticker)
    r.fail(at(path, 'ticker'), `must be ${native.ticker}, the ticker of chain "${native.id}"`);
  const wp = at(path, 'wrapped');
  const w = r.obj(o.wrapped, wp, ['chain', 'ticker', 'name', 'mint', 'decimals']);
  const wchain = chainRef(r, w.chain, at(wp, 'chain'), chains, 'solana');
  const mint = r.str(w.mint, at(wp, 'mint'));
  if (!isSolanaKey(mint)) r.fail(at(wp, 'mint'), 'must be a base58 Solana mint address (32 bytes)');
  const decimals = r.int(o.decimals, at(path, 'decimals'), 0, 18);
  const reserveAddresses = r
    .arr(o.reserveAddresses, at(path, 'reserveAddresses'))
    .map((a, i) => utxoAddress(r, a, at(at(path, 'reserveAddresses'), i), native));
  r.unique(reserveAddresses, (i) => at(at(path, 'reserveAddresses'), i), 'the address');
  return {
    ticker,
    name: r.str(o.name, at(path, 'name')),
    decimals,
    nativeChain: native.id,
    wrapped: {
      chain: wchain.id,
      ticker: r.str(w.ticker, at(wp, 'ticker'), TICKER, 'a ticker such as wLKY'),
      name: r.str(w.name, at(wp, 'name')),
      mint,
      decimals: r.int(w.decimals, at(wp, 'decimals'), 0, decimals),
    },
    reserveAddresses,
  };
}

function lane(r: Reader, v: unknown, path: string, assets: BridgeAsset[], chains: Chain[]): Lane {
  const o = r.obj(
    v,
    path,
    ['id', 'asset', 'direction', 'status', 'confirmations', 'minAmount', 'maxAmount', 'fees'],
    ['pausedReason', 'depositAddress'],
  );
  const a = assets.find((x) => x.ticker === o.asset);
  if (!a)
    r.fail(
      at(path, 'asset'),
      `must be the ticker of one of the assets (${assets.map((x) => x.ticker).join(', ')})`,
    );
  const direction = r.oneOf<Lane['direction']>(o.direction, at(path, 'direction'), ['wrap', 'unwrap']);
  const status = r.oneOf<Lane['status']>(o.status, at(path, 'status'), ['active', 'paused']);
  let pausedReason: string | null = null;
  if (status === 'paused')
    pausedReason = r.str(
      o.pausedReason,
      at(path, 'pausedReason'),
      undefined,
      'a non-empty string saying why the lane is paused',
    );
  else if (o.pausedReason !== undefined)
    r.fail(at(path, 'pausedReason'), 'is only allowed when status is "paused"');
  const minAmount = r.units(o.minAmount, at(path, 'minAmount'));
  const maxAmount = r.units(o.maxAmount, at(path, 'maxAmount'));
  if (BigInt(minAmount) > BigInt(maxAmount)) r.fail(at(path, 'maxAmount'), 'must not be less than minAmount');
  const fp = at(path, 'fees');
  const f = r.obj(o.fees, fp, ['fixed', 'percent']);
  const fees = {
    fixed: r.units(f.fixed, at(fp, 'fixed')),
    percent: r.num(f.percent, at(fp, 'percent'), 0, 100),
  };
  if (BigInt(fees.fixed) > BigInt(minAmount))
    r.fail(at(fp, 'fixed'), 'must not exceed minAmount (a minimum transfer would not cover its fee)');
  const from = direction === 'wrap' ? a.nativeChain : a.wrapped.chain;
  const to = direction === 'wrap' ? a.wrapped.chain : a.nativeChain;
  let depositAddress: string | null = null;
  if (direction === 'wrap') {
    const native = chains.find((c) => c.id === a.nativeChain) as UtxoChain;
    depositAddress = utxoAddress(r, o.depositAddress, at(path, 'depositAddress'), native);
    if (!a.reserveAddresses.includes(depositAddress)) {
      r.fail(
        at(path, 'depositAddress'),
        `must be one of the reserveAddresses of ${a.ticker} (deposits are reserves)`,
      );
    }
  } else if (o.depositAddress !== undefined) {
    r.fail(at(path, 'depositAddress'), 'is only for wrap lanes (unwrap burns through the bridge program)');
  }
  return {
    id: r.str(o.id, at(path, 'id'), ID, 'a lowercase slug such as "lky-wrap"'),
    asset: a.ticker,
    direction,
    from,
    to,
    status,
    pausedReason,
    confirmations: r.int(o.confirmations, at(path, 'confirmations'), 1, 10_000),
    minAmount,
    maxAmount,
    fees,
    depositAddress,
  };
}

function chainRef<K extends Chain['kind']>(
  r: Reader,
  v: unknown,
  path: string,
  chains: Chain[],
  kind: K,
): Extract<Chain, { kind: K }> {
  const ids = chains.filter((c) => c.kind === kind).map((c) => c.id);
  if (typeof v !== 'string' || !ids.includes(v))
    r.fail(path, `must be the id of a ${kind} chain (${ids.join(', ') || 'none declared'})`);
  return chains.find((c) => c.id === v) as Extract<Chain, { kind: K }>;
}

function utxoAddress(r: Reader, v: unknown, path: string, chain: UtxoChain): string {
  const s = r.str(v, path);
  if (!isUtxoAddress(s, chain)) {
    r.fail(
      path,
      `must be a valid ${chain.ticker} address on ${chain.id} (Base58Check, version ${[chain.p2pkh, ...chain.p2sh].join(' or ')})`,
    );
  }
  return s;
}
