/**
 * The assets we track: the wallet's 19 kit coins and the largest majors, with CoinGecko's ids and symbols so that
 * `/coins/list` and `?ids=` work unchanged for CoinGecko clients.
 *
 * Facts that are not certain are `null` (block time, genesis date, homepage), never guessed. Genesis dates are the
 * UTC date of the chain's own genesis block (or mainnet launch for chains without a meaningful block 0).
 */
import type { AssetInfo } from './types.ts';

type Row = [
  id: string,
  symbol: string,
  name: string,
  hashingAlgorithm: string | null,
  blockTimeMinutes: number | null,
  genesisDate: string | null,
  homepage: string | null,
];

/** The 19 wallet kit coins, in kit order: [kitTicker, ...row]. */
const KIT_ROWS: readonly [string, ...Row][] = [
  ['LTC', 'litecoin', 'ltc', 'Litecoin', 'Scrypt', 2.5, '2011-10-07', 'https://litecoin.org/'],
  ['DOGE', 'dogecoin', 'doge', 'Dogecoin', 'Scrypt', 1, '2013-12-06', 'https://dogecoin.com/'],
  ['DGB', 'digibyte', 'dgb', 'DigiByte', 'multi-algo', 0.25, '2014-01-10', 'https://digibyte.org/'],
  ['LKY', 'luckycoin', 'lky', 'Luckycoin', 'Scrypt', 1, null, null],
  ['PEP', 'pepecoin', 'pep', 'Pepecoin', 'Scrypt', 1, null, 'https://pepecoin.org/'],
  ['BELLS', 'bellscoin', 'bells', 'Bellscoin', 'Scrypt', 1, null, null],
  ['DINGO', 'dingocoin', 'dingo', 'Dingocoin', 'Scrypt', 1, null, null],
  ['SHIC', 'shibacoin', 'shic', 'Shibacoin', 'Scrypt', null, null, null],
  ['JKC', 'junkcoin', 'jkc', 'Junkcoin', 'Scrypt', null, null, null],
  ['CAT', 'catcoin', 'cat', 'Catcoin', 'Scrypt', 10, null, null],
  ['FLOP', 'flopcoin', 'flop', 'Flopcoin', 'Scrypt', null, null, null],
  ['FBX', 'fairbrix', 'fbx', 'Fairbrix', 'Scrypt', null, null, null],
  ['CRC', 'craftcoin', 'crc', 'Craftcoin', 'Scrypt', null, null, null],
  ['BQC', 'bbqcoin', 'bqc', 'BBQCoin', 'Scrypt', null, null, null],
  ['BONK', 'bonkcoin', 'bonk', 'Bonkcoin', 'Scrypt', null, null, null],
  ['EAC', 'earthcoin', 'eac', 'Earthcoin', 'Scrypt', 1, null, null],
  ['NYC', 'newyorkcoin', 'nyc', 'NewYorkCoin', 'Scrypt', 0.5, null, null],
  ['CY', 'cyberyen', 'cy', 'Cyberyen', 'Scrypt', null, null, null],
  ['B1T', 'bit-b1t', 'b1t', 'Bit', 'Scrypt', null, null, null],
];

/** Majors, roughly by market capitalisation. Proof-of-stake and token block times are null unless fixed by design. */
const MAJOR_ROWS: readonly Row[] = [
  ['bitcoin', 'btc', 'Bitcoin', 'SHA-256', 10, '2009-01-03', 'https://bitcoin.org/'],
  ['ethereum', 'eth', 'Ethereum', null, 0.2, '2015-07-30', 'https://ethereum.org/'],
  ['tether', 'usdt', 'Tether', null, null, null, 'https://tether.to/'],
  ['ripple', 'xrp', 'XRP', null, null, null, 'https://xrpl.org/'],
  ['binancecoin', 'bnb', 'BNB', null, null, null, 'https://www.bnbchain.org/'],
  ['solana', 'sol', 'Solana', null, null, null, 'https://solana.com/'],
  ['usd-coin', 'usdc', 'USDC', null, null, null, 'https://www.circle.com/usdc'],
  ['tron', 'trx', 'TRON', null, 0.05, null, 'https://tron.network/'],
  ['cardano', 'ada', 'Cardano', null, 0.33, null, 'https://cardano.org/'],
  ['hyperliquid', 'hype', 'Hyperliquid', null, null, null, 'https://hyperliquid.xyz/'],
  ['chainlink', 'link', 'Chainlink', null, null, null, 'https://chain.link/'],
  ['bitcoin-cash', 'bch', 'Bitcoin Cash', 'SHA-256', 10, '2017-08-01', 'https://bch.info/'],
  ['stellar', 'xlm', 'Stellar', null, null, null, 'https://stellar.org/'],
  ['ethena-usde', 'usde', 'Ethena USDe', null, null, null, 'https://ethena.fi/'],
  ['sui', 'sui', 'Sui', null, null, null, 'https://sui.io/'],
  ['avalanche-2', 'avax', 'Avalanche', null, null, null, 'https://www.avax.network/'],
  ['hedera-hashgraph', 'hbar', 'Hedera', null, null, null, 'https://hedera.com/'],
  ['leo-token', 'leo', 'LEO Token', null, null, null, null],
  ['shiba-inu', 'shib', 'Shiba Inu', null, null, null, 'https://shibatoken.com/'],
  ['the-open-network', 'ton', 'Toncoin', null, null, null, 'https://ton.org/'],
  ['monero', 'xmr', 'Monero', 'RandomX', 2, '2014-04-18', 'https://www.getmonero.org/'],
  ['dai', 'dai', 'Dai', null, null, null, 'https://makerdao.com/'],
  ['polkadot', 'dot', 'Polkadot', null, 0.1, '2020-05-26', 'https://polkadot.network/'],
  ['crypto-com-chain', 'cro', 'Cronos', null, null, null, 'https://cronos.org/'],
  ['uniswap', 'uni', 'Uniswap', null, null, null, 'https://uniswap.org/'],
  ['pepe', 'pepe', 'Pepe', null, null, null, 'https://www.pepe.vip/'],
  ['aave', 'aave', 'Aave', null, null, null, 'https://aave.com/'],
  ['okb', 'okb', 'OKB', null, null, null, 'https://www.okx.com/'],
  ['near', 'near', 'NEAR Protocol', null, null, null, 'https://near.org/'],
  ['ethereum-classic', 'etc', 'Ethereum Classic', 'Etchash', null, null, 'https://ethereumclassic.org/'],
  ['aptos', 'apt', 'Aptos', null, null, null, 'https://aptosfoundation.org/'],
  ['internet-computer', 'icp', 'Internet Computer', null, null, null, 'https://internetcomputer.org/'],
  ['bittensor', 'tao', 'Bittensor', null, null, null, 'https://bittensor.com/'],
  ['cosmos', 'atom', 'Cosmos Hub', null, null, null, 'https://cosmos.network/'],
  ['polygon-ecosystem-token', 'pol', 'POL (ex-MATIC)', null, null, null, 'https://polygon.technology/'],
  ['arbitrum', 'arb', 'Arbitrum', null, null, null, 'https://arbitrum.io/'],
  ['optimism', 'op', 'Optimism', null, null, null, 'https://www.optimism.io/'],
  ['vechain', 'vet', 'VeChain', null, null, null, 'https://www.vechain.org/'],
  ['algorand', 'algo', 'Algorand', null, null, null, 'https://algorand.co/'],
  ['filecoin', 'fil', 'Filecoin', null, 0.5, null, 'https://filecoin.io/'],
  ['kaspa', 'kas', 'Kaspa', 'kHeavyHash', null, '2021-11-07', 'https://kaspa.org/'],
  ['mantle', 'mnt', 'Mantle', null, null, null, 'https://www.mantle.xyz/'],
  ['first-digital-usd', 'fdusd', 'First Digital USD', null, null, null, 'https://firstdigitallabs.com/'],
  ['render-token', 'render', 'Render', null, null, null, 'https://rendernetwork.com/'],
  ['stacks', 'stx', 'Stacks', null, null, null, 'https://www.stacks.co/'],
  ['injective-protocol', 'inj', 'Injective', null, null, null, 'https://injective.com/'],
  ['the-graph', 'grt', 'The Graph', null, null, null, 'https://thegraph.com/'],
  ['maker', 'mkr', 'Maker', null, null, null, 'https://makerdao.com/'],
  ['tezos', 'xtz', 'Tezos', null, null, null, 'https://tezos.com/'],
  ['eos', 'eos', 'EOS', null, null, null, null],
  ['zcash', 'zec', 'Zcash', 'Equihash', 1.25, '2016-10-28', 'https://z.cash/'],
  ['dash', 'dash', 'Dash', 'X11', 2.5, '2014-01-19', 'https://www.dash.org/'],
  ['bitcoin-cash-sv', 'bsv', 'Bitcoin SV', 'SHA-256', 10, '2018-11-15', null],
  ['yearn-finance', 'yfi', 'yearn.finance', null, null, null, 'https://yearn.fi/'],
  ['wrapped-bitcoin', 'wbtc', 'Wrapped Bitcoin', null, null, null, 'https://wbtc.network/'],
  ['true-usd', 'tusd', 'TrueUSD', null, null, null, 'https://tusd.io/'],
  ['binance-usd', 'busd', 'BUSD', null, null, null, null],
  ['paypal-usd', 'pyusd', 'PayPal USD', null, null, null, 'https://www.paypal.com/pyusd'],
  ['decred', 'dcr', 'Decred', 'BLAKE256', 5, '2016-02-08', 'https://decred.org/'],
  ['ravencoin', 'rvn', 'Ravencoin', 'KawPoW', 1, '2018-01-03', 'https://ravencoin.org/'],
  ['namecoin', 'nmc', 'Namecoin', 'SHA-256', 10, '2011-04-18', 'https://www.namecoin.org/'],
];

const toAsset = ([
  id,
  symbol,
  name,
  hashingAlgorithm,
  blockTimeMinutes,
  genesisDate,
  homepage,
]: Row): AssetInfo => ({
  id,
  symbol,
  name,
  hashingAlgorithm,
  blockTimeMinutes,
  genesisDate,
  homepage,
});

export const ASSETS: readonly AssetInfo[] = [
  ...KIT_ROWS.map(([kitTicker, ...row]): AssetInfo => ({ ...toAsset(row), kitTicker })),
  ...MAJOR_ROWS.map(toAsset),
];

export const ASSET_BY_ID: ReadonlyMap<string, AssetInfo> = new Map(ASSETS.map((a) => [a.id, a]));

/** The kit coin of an uppercase ticker (`LTC` → litecoin); undefined for anything else. */
export const ASSET_BY_KIT_TICKER: ReadonlyMap<string, AssetInfo> = new Map(
  ASSETS.flatMap((a) => (a.kitTicker ? [[a.kitTicker, a] as const] : [])),
);

/** The catalog asset of a kit coin ticker (`LTC`); throws for another (the sources file checks tickers first). */
export function assetOfTicker(ticker: string): AssetInfo {
  const a = ASSET_BY_KIT_TICKER.get(ticker);
  if (!a) throw new Error(`unknown coin ticker ${ticker}`);
  return a;
}

/** The 19 kit coin tickers (uppercase), in wallet order. */
export const KIT_TICKERS: readonly string[] = KIT_ROWS.map(([ticker]) => ticker);

/**
 * Protocol supply caps, in coins, of the coins whose cap is fixed by their consensus rules and beyond doubt: a
 * circulating or total supply above it is an impossible reading and is rejected at ingestion. Coins not listed have
 * no cap or one we have not verified; their readings are not bounded this way.
 */
export const PROTOCOL_MAX_SUPPLY: ReadonlyMap<string, number> = new Map([
  ['bitcoin', 21_000_000],
  ['bitcoin-cash', 21_000_000],
  ['bitcoin-cash-sv', 21_000_000],
  ['litecoin', 84_000_000],
  ['digibyte', 21_000_000_000],
]);
