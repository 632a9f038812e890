/**
 * Per-coin parameters for the Bitcoin message-signing scheme (`signmessage` / `verifymessage`).
 *
 * Every Bitcoin-derived coin uses the same construction (see `docs/signatures.md`); only the
 * message prefix ("magic") and the address encodings differ, so everything in `src/crypto` is
 * parametric over this record.
 *
 * Only Litecoin is defined for now (wallet sign-in). Other coins (BTC, DOGE, …) are added together
 * with name resolution's proof-of-control, which verifies signatures for several chains.
 */
export interface MessageCoinParams {
  /** Upper-case ticker, informational only (e.g. `'LTC'`). */
  readonly ticker: string;
  /**
   * The message magic WITHOUT its length byte, e.g. `'Litecoin Signed Message:\n'`. The hash
   * serialises it as a Bitcoin string (CompactSize length ‖ UTF-8 bytes), as Core does.
   */
  readonly messagePrefix: string;
  /** Base58Check version byte of P2PKH addresses. */
  readonly p2pkh: number;
  /**
   * Base58Check version bytes accepted for P2SH addresses, current (used when encoding) first.
   * Litecoin accepts two: 0x32 ('M…', current) and the deprecated 0x05 ('3…', shared with Bitcoin).
   */
  readonly p2sh: readonly number[];
  /** Human-readable part of bech32 segwit addresses, or `null` when the coin has no segwit. */
  readonly bech32Hrp: string | null;
}

/**
 * Litecoin mainnet.
 *
 * Source: litecoin-project/litecoin `src/chainparams.cpp` (CMainParams):
 *   base58Prefixes[PUBKEY_ADDRESS]  = 48  (0x30, 'L…')
 *   base58Prefixes[SCRIPT_ADDRESS]  = 5   (0x05, '3…', deprecated, still decoded by Core)
 *   base58Prefixes[SCRIPT_ADDRESS2] = 50  (0x32, 'M…', current)
 *   bech32_hrp = "ltc"
 * and the message magic `"Litecoin Signed Message:\n"` (`strMessageMagic` in `src/validation.cpp`
 * up to 0.17, `MESSAGE_MAGIC` in `src/util/message.cpp` since 0.21). The magic is confirmed by the
 * Litecoin Core `signmessagewithprivkey` vector in `test/crypto/signed-message.test.ts`.
 */
export const LTC: MessageCoinParams = Object.freeze({
  ticker: 'LTC',
  messagePrefix: 'Litecoin Signed Message:\n',
  p2pkh: 0x30,
  p2sh: Object.freeze([0x32, 0x05]),
  bech32Hrp: 'ltc',
});
