/**
 * Per-coin chain parameters for the 19 UTXO coins of the kit (+ Solana, which has no entry here):
 * address versions, bech32 HRP, WIF version, SLIP-44 coin type and the message-signing magic.
 *
 * Used by name resolution to validate addresses before storing them (`validate-address.ts`) and to
 * verify proof-of-control signatures (`verifySignedMessage(messageParams(asset, network), …)`).
 *
 * Data sources (see `docs/chains.md` for the full table):
 * - Address versions, WIF, HRP, SLIP-44: `/work/shared/reference/wallet.md` §5.2 (mainnet) and §5.3
 *   (testnet), read from each coin's `chainparams.cpp` at the commits listed per coin below.
 * - Message magic (`strMessageMagic` / `MESSAGE_MAGIC`): read directly from each coin's source at the
 *   repo@commit path given per coin. Three are NOT confirmed in the coin's own current source and are
 *   marked `unverified` (DGB: secondary sources only; CAT: only a legacy 0.8-era Catcoin tree; BQC:
 *   a third-party network list only).
 *
 * Conventions: `p2sh` lists every accepted P2SH version, the current one (used for encoding) first.
 * `bech32Hrp` is `null` where no segwit address is deployed (e.g. DOGE: `doge` exists only in a
 * development branch). Testnet `slip44` is 1 ("Testnet (all coins)"). `wif: null` = not verified.
 */
import type { MessageCoinParams } from './coins.ts';
import { LTC as LTC_MESSAGE_PARAMS } from './coins.ts';

export type Network = 'mainnet' | 'testnet';

export interface ChainParams extends MessageCoinParams {
  /** Human-readable coin name, e.g. `'Litecoin'`. */
  readonly name: string;
  readonly network: Network;
  /** SLIP-44 coin type (`null`: not registered); 1 on every testnet. */
  readonly slip44: number | null;
  /** Base58Check version byte of WIF private keys (`null`: not verified). */
  readonly wif: number | null;
}

/** The 19 UTXO tickers of the kit, in kit order. */
export const KIT_TICKERS: readonly string[] = Object.freeze([
  'LTC',
  'DOGE',
  'DGB',
  'LKY',
  'PEP',
  'BELLS',
  'DINGO',
  'SHIC',
  'JKC',
  'CAT',
  'FLOP',
  'FBX',
  'CRC',
  'BQC',
  'BONK',
  'EAC',
  'NYC',
  'CY',
  'B1T',
]);

/** The 19 UTXO tickers + `'SOL'`. */
export const KIT_TICKERS_AND_SOL: readonly string[] = Object.freeze([...KIT_TICKERS, 'SOL']);

interface NetParams {
  p2pkh: number;
  p2sh: number[];
  bech32Hrp: string | null;
  wif: number | null;
  slip44?: number | null;
}

function coin(
  ticker: string,
  name: string,
  messagePrefix: string,
  slip44: number | null,
  mainnet: NetParams,
  testnet: NetParams,
): Readonly<Record<Network, ChainParams>> {
  const make = (network: Network, p: NetParams): ChainParams =>
    Object.freeze({
      ticker,
      name,
      network,
      messagePrefix,
      p2pkh: p.p2pkh,
      p2sh: Object.freeze([...p.p2sh]),
      bech32Hrp: p.bech32Hrp,
      wif: p.wif,
      slip44: network === 'testnet' ? 1 : slip44,
    });
  return Object.freeze({ mainnet: make('mainnet', mainnet), testnet: make('testnet', testnet) });
}

export const CHAINS: Readonly<Record<string, Readonly<Record<Network, ChainParams>>>> = Object.freeze({
  // Litecoin. chainparams: litecoin-project/litecoin@d8c8adc0 src/chainparams.cpp
  //   (SCRIPT_ADDRESS2 = 50 'M' current, SCRIPT_ADDRESS = 5 '3' deprecated; testnet 58 'Q' / 196 '2').
  // Magic: src/util/message.cpp MESSAGE_MAGIC — verified by the Litecoin Core signmessage vector in
  //   test/crypto/signed-message.test.ts. Mainnet message fields are taken from coins.ts LTC.
  LTC: coin(
    'LTC',
    'Litecoin',
    LTC_MESSAGE_PARAMS.messagePrefix,
    2,
    {
      p2pkh: LTC_MESSAGE_PARAMS.p2pkh,
      p2sh: [...LTC_MESSAGE_PARAMS.p2sh],
      bech32Hrp: LTC_MESSAGE_PARAMS.bech32Hrp,
      wif: 176,
    },
    { p2pkh: 111, p2sh: [58, 196], bech32Hrp: 'tltc', wif: 239 },
  ),
  // Dogecoin. chainparams: dogecoin/dogecoin (release values corroborated by spesmilo/electrumx@42e9b38f
  //   coins.py and ensdomains/address-encoder doge.ts; `doge`/`tdge` HRPs exist only in a dev branch
  //   @0273b59a, so no bech32 here).
  // Magic: dogecoin/dogecoin@021eac6c src/validation.cpp strMessageMagic (verified).
  DOGE: coin(
    'DOGE',
    'Dogecoin',
    'Dogecoin Signed Message:\n',
    3,
    { p2pkh: 30, p2sh: [22], bech32Hrp: null, wif: 158 },
    { p2pkh: 113, p2sh: [196], bech32Hrp: null, wif: 241 },
  ),
  // DigiByte. chainparams: DigiByte-Core/digibyte@47da24a5 src/chainparams.cpp (SCRIPT_ADDRESS = 63 'S',
  //   SCRIPT_ADDRESS_OLD = 5; WIF 128, old 158).
  // Magic: UNVERIFIED in DigiByte Core (its message file is not in the stored snapshot); every secondary
  //   source agrees on "DigiByte Signed Message:\n" (LedgerHQ lib-ledger-core network params, DigiByte
  //   wallets' DigiID code, Go/Perl verifiers).
  DGB: coin(
    'DGB',
    'DigiByte',
    'DigiByte Signed Message:\n',
    20,
    { p2pkh: 30, p2sh: [63, 5], bech32Hrp: 'dgb', wif: 128 },
    { p2pkh: 126, p2sh: [140], bech32Hrp: 'dgbt', wif: 254 },
  ),
  // Luckycoin. chainparams: luiselzate/luckycoin_1.14.3@cf8c74f7 src/chainparams.cpp. SLIP-44 has two
  //   "LKY" entries (790 "Luckycoin", 743 "LuckyCoin"); 790 (registered first) is used here.
  // Magic: luiselzate/luckycoin_1.14.3@03fcdf23 src/validation.cpp keeps Dogecoin's
  //   strMessageMagic "Dogecoin Signed Message:\n" (verified). Note: another stored Luckycoin-derived
  //   validation.cpp (repository not identified) uses "Luckycoin Signed Message:\n".
  LKY: coin(
    'LKY',
    'Luckycoin',
    'Dogecoin Signed Message:\n',
    790,
    { p2pkh: 47, p2sh: [5], bech32Hrp: null, wif: 175 },
    { p2pkh: 113, p2sh: [196], bech32Hrp: null, wif: 241 },
  ),
  // Pepecoin. chainparams: pepecoinppc/pepecoin@4fb5a0cd src/chainparams.cpp (SLIP-44 symbol "PEPE").
  // Magic: pepecoinppc/pepecoin@2fb39695 src/validation.cpp strMessageMagic (verified).
  PEP: coin(
    'PEP',
    'Pepecoin',
    'Pepecoin Signed Message:\n',
    3434,
    { p2pkh: 56, p2sh: [22], bech32Hrp: null, wif: 158 },
    { p2pkh: 113, p2sh: [196], bech32Hrp: null, wif: 241 },
  ),
  // Bellscoin. chainparams: Nintondo/bellscoinV3@65f96579 src/kernel/chainparams.cpp.
  // Magic: Nintondo/bellscoinV3@8d4709a5 src/common/signmessage.cpp MESSAGE_MAGIC — note "Bells",
  //   not "Bellscoin" (verified).
  BELLS: coin(
    'BELLS',
    'Bellscoin',
    'Bells Signed Message:\n',
    762,
    { p2pkh: 25, p2sh: [30], bech32Hrp: 'bel', wif: 153 },
    { p2pkh: 33, p2sh: [22], bech32Hrp: 'tbel', wif: 158 },
  ),
  // Dingocoin. chainparams: dingocoin/dingocoin@ed0dadf6 src/chainparams.cpp (not in SLIP-44).
  // Magic: dingocoin/dingocoin@524e64fa src/validation.cpp strMessageMagic (verified).
  DINGO: coin(
    'DINGO',
    'Dingocoin',
    'Dingocoin Signed Message:\n',
    null,
    { p2pkh: 30, p2sh: [22], bech32Hrp: null, wif: 158 },
    { p2pkh: 113, p2sh: [196], bech32Hrp: null, wif: 241 },
  ),
  // Shibacoin. chainparams: shibacoinppc/shibacoin@9cde97e2 src/chainparams.cpp.
  // Magic: shibacoinppc/shibacoin@29f2232e src/validation.cpp strMessageMagic (verified).
  SHIC: coin(
    'SHIC',
    'Shibacoin',
    'Shibacoin Signed Message:\n',
    4474,
    { p2pkh: 63, p2sh: [22], bech32Hrp: null, wif: 158 },
    { p2pkh: 113, p2sh: [196], bech32Hrp: null, wif: 241 },
  ),
  // Junkcoin. chainparams: Junkcoin-Foundation/junkcoin-core@9e3f24f6 src/chainparams.cpp (`jc` HRP
  //   commented out → none). Testnet P2SH is 5, the same as mainnet.
  // Magic: Junkcoin-Foundation/junkcoin-core@560b9ffb src/util/message.cpp MESSAGE_MAGIC (verified).
  JKC: coin(
    'JKC',
    'Junkcoin',
    'Junkcoin Signed Message:\n',
    2013,
    { p2pkh: 16, p2sh: [5], bech32Hrp: null, wif: 144 },
    { p2pkh: 111, p2sh: [5], bech32Hrp: null, wif: 239 },
  ),
  // Catcoin. chainparams: CatcoinCore/catcoincore@491a6ca1 src/chainparams.cpp (bech32_hrp "cat",
  //   commented "Unused atm"; kept per wallet.md). Three testnets exist; testnet1 (23/83/151, t1cat)
  //   is modelled.
  // Magic: UNVERIFIED for CatcoinCore (its message file is not stored). "Catcoin Signed Message:\n"
  //   is the strMessageMagic of the legacy 0.8-era Catcoin main.cpp and of third-party network lists.
  CAT: coin(
    'CAT',
    'Catcoin',
    'Catcoin Signed Message:\n',
    null,
    { p2pkh: 21, p2sh: [88], bech32Hrp: 'cat', wif: 149 },
    { p2pkh: 23, p2sh: [83], bech32Hrp: 't1cat', wif: 151 },
  ),
  // Flopcoin. chainparams: Flopcoin/Flopcoin@6d9df5b3 src/chainparams.cpp.
  // Magic: Flopcoin/Flopcoin@0d0c080a src/validation.cpp strMessageMagic (verified).
  FLOP: coin(
    'FLOP',
    'Flopcoin',
    'Flopcoin Signed Message:\n',
    null,
    { p2pkh: 35, p2sh: [22], bech32Hrp: null, wif: 158 },
    { p2pkh: 56, p2sh: [76], bech32Hrp: null, wif: 184 },
  ),
  // Fairbrix. Only a 2013 0.8 fork is available: ahmedbodi/fairbrix-0.8-coincontrol@c6dd0593
  //   src/base58.h (PUBKEY_ADDRESS 127, SCRIPT_ADDRESS 5); WIF not verified. Testnet values are the
  //   Bitcoin/Litecoin 0.8 defaults (111/196) — UNVERIFIED.
  // Magic: ahmedbodi/fairbrix-0.8-coincontrol@265fa923 src/main.cpp strMessageMagic (verified for
  //   that tree; confirm against the current Fairbrix Core release).
  FBX: coin(
    'FBX',
    'Fairbrix',
    'Fairbrix Signed Message:\n',
    null,
    { p2pkh: 127, p2sh: [5], bech32Hrp: null, wif: null },
    { p2pkh: 111, p2sh: [196], bech32Hrp: null, wif: null },
  ),
  // CraftCoin. chainparams: craftcoin2013/craftcoinV3@8abe9f27 src/chainparams.cpp. Testnet P2SH is 5,
  //   the same as mainnet.
  // Magic: craftcoin2013/craftcoinV3@78ad6f1d src/validation.cpp — "CraftCoin" (capital C) (verified).
  CRC: coin(
    'CRC',
    'CraftCoin',
    'CraftCoin Signed Message:\n',
    null,
    { p2pkh: 57, p2sh: [5], bech32Hrp: null, wif: 185 },
    { p2pkh: 16, p2sh: [5], bech32Hrp: null, wif: 150 },
  ),
  // BBQCoin. chainparams: bbqcoin2012/BBQCoin@7e5e0820 src/chainparams.cpp.
  // Magic: UNVERIFIED (no BBQCoin source file with the magic is stored); "BBQcoin Signed Message:\n"
  //   is taken from a third-party bitcoinjs network list.
  BQC: coin(
    'BQC',
    'BBQCoin',
    'BBQcoin Signed Message:\n',
    null,
    { p2pkh: 85, p2sh: [6], bech32Hrp: null, wif: 176 },
    { p2pkh: 25, p2sh: [176], bech32Hrp: null, wif: 239 },
  ),
  // Bonkcoin. chainparams: Bonkcoin/Bonkcoin-core@d7a036ff src/chainparams.cpp.
  // Magic: Bonkcoin/Bonkcoin-core@c0660daa src/validation.cpp — spelled "Boncoin" (sic) in the
  //   source; that exact string is what Bonkcoin Core hashes (verified).
  BONK: coin(
    'BONK',
    'Bonkcoin',
    'Boncoin Signed Message:\n',
    null,
    { p2pkh: 25, p2sh: [28], bech32Hrp: null, wif: 151 },
    { p2pkh: 113, p2sh: [196], bech32Hrp: null, wif: 241 },
  ),
  // Earthcoin. chainparams: Sandokaaan/Earthcoin@db0dae88 src/chainparams.cpp (P2SH was 5, now 33).
  // Magic: Sandokaaan/Earthcoin@00cdf207 src/validation.cpp strMessageMagic (verified).
  EAC: coin(
    'EAC',
    'Earthcoin',
    'Earthcoin Signed Message:\n',
    null,
    { p2pkh: 93, p2sh: [33], bech32Hrp: 'eac', wif: 221 },
    { p2pkh: 111, p2sh: [58], bech32Hrp: 'teac', wif: 239 },
  ),
  // NewYorkCoin. chainparams: MrSlosh/NewYorkCoin-AuxPow@6be95a4a src/chainparams.cpp.
  // Magic: MrSlosh/NewYorkCoin-AuxPow@029729b4 src/main.cpp strMessageMagic (verified).
  NYC: coin(
    'NYC',
    'NewYorkCoin',
    'NewYorkCoin Signed Message:\n',
    179,
    { p2pkh: 60, p2sh: [22], bech32Hrp: null, wif: 188 },
    { p2pkh: 113, p2sh: [196], bech32Hrp: null, wif: 241 },
  ),
  // Cyberyen. chainparams: cyberyen/cyberyen@e035a34a src/chainparams.cpp (SCRIPT_ADDRESS 77,
  //   SCRIPT_ADDRESS2 22). SLIP-44 802 (3601 "CY" is Cybits).
  // Magic: cyberyen/cyberyen@41e88454 src/util/message.cpp MESSAGE_MAGIC (verified).
  CY: coin(
    'CY',
    'Cyberyen',
    'Cyberyen Signed Message:\n',
    802,
    { p2pkh: 28, p2sh: [77, 22], bech32Hrp: 'cy', wif: 156 },
    { p2pkh: 112, p2sh: [196, 58], bech32Hrp: 'tcy', wif: 240 },
  ),
  // Bit ("Bit Core [B1T]"). chainparams: bittoshimoto/Bit@4cd41987 src/chainparams.cpp.
  // Magic: bittoshimoto/Bit@a2fa5122 src/validation.cpp strMessageMagic "Bit Signed Message:\n" (verified).
  B1T: coin(
    'B1T',
    'Bit',
    'Bit Signed Message:\n',
    3141,
    { p2pkh: 25, p2sh: [22], bech32Hrp: null, wif: 158 },
    { p2pkh: 65, p2sh: [196], bech32Hrp: null, wif: 241 },
  ),
});

/** Tickers whose `messagePrefix` is not confirmed in the coin's own current source. */
export const UNVERIFIED_MESSAGE_MAGIC: readonly string[] = Object.freeze(['DGB', 'CAT', 'BQC']);

/** Upper-cased, trimmed ticker if it has an entry in {@link CHAINS}, else `null`. */
export function chainTicker(asset: string): string | null {
  if (typeof asset !== 'string') return null;
  const t = asset.trim().toUpperCase();
  return Object.prototype.hasOwnProperty.call(CHAINS, t) ? t : null;
}

/**
 * Chain (and message-signing) parameters of `asset` on `network`; `null` for SOL (no Bitcoin-style
 * message signing) and unknown assets. Case-insensitive on the ticker.
 */
export function messageParams(asset: string, network: Network = 'mainnet'): ChainParams | null {
  const t = chainTicker(asset);
  if (t === null) return null;
  return CHAINS[t]?.[network] ?? null;
}
