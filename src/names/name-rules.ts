/**
 * The rules of names and coins, as pure functions (no database, no server).
 *
 * A name is `<label>.<suffix>`: the suffix is the service's own (`NAME_SUFFIX`, default `coin`) and the label is 3 to
 * 32 lowercase letters, digits and inner hyphens. Input is trimmed and case-folded first (`Alice.COIN` → `alice.coin`);
 * anything else is refused with a message that states the rule. Only ASCII is accepted, and it is checked before
 * case folding, so look-alikes such as the Kelvin sign (U+212A, which lowercases to `k`) are refused rather than
 * folded into an existing name. Labels in the IDNA punycode form (`xn--…`, hyphens in positions 3 and 4) are refused
 * too: a name shows exactly as it is stored.
 */
import { KIT_TICKERS_AND_SOL } from '../crypto/chains.ts';
import { missingParam, paramError } from '../core/params.ts';
import { nameErrors } from './errors.ts';

export const DEFAULT_NAME_SUFFIX = 'coin';
export const LABEL_MIN = 3;
export const LABEL_MAX = 32;
const LABEL_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const SUFFIX_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** A valid name, split. */
export interface ParsedName {
  /** The label, lowercase: what the database stores. */
  label: string;
  /** `<label>.<suffix>`. */
  name: string;
}

/** Checks a configured suffix (`NAME_SUFFIX`); throws on an invalid one (a configuration error, not a request's). */
export function checkSuffix(suffix: string): string {
  const s = suffix.trim().toLowerCase();
  if (!SUFFIX_RE.test(s) || s.length > 32) {
    throw new Error(
      `NAME_SUFFIX must be 1 to 32 lowercase letters, digits and inner hyphens; got ${JSON.stringify(suffix)}`,
    );
  }
  return s;
}

/** The rule, as told in every INVALID_NAME message. */
export function labelRule(suffix: string): string {
  return `a name is <label>.${suffix}, the label being ${LABEL_MIN} to ${LABEL_MAX} lowercase letters (a-z), digits and inner hyphens (e.g. alice.${suffix})`;
}

/** Normalises and validates a name (`alice.coin`, any case, surrounding spaces); throws 400 INVALID_NAME. */
export function parseName(input: string, suffix: string): ParsedName {
  const rule = labelRule(suffix);
  const trimmed = input.trim();
  // ASCII letters, digits, '.' and '-' only, checked before folding case (see the module comment).
  if (/[^\x21-\x7e]/.test(trimmed))
    throw nameErrors.invalidName(`${rule}; only ASCII is accepted (no Unicode)`);
  const folded = trimmed.toLowerCase();
  const dot = folded.lastIndexOf('.');
  if (dot < 0) throw nameErrors.invalidName(`${rule}; the name must end in .${suffix}`);
  if (folded.slice(dot + 1) !== suffix) {
    throw nameErrors.invalidName(`${rule}; names of this service end in .${suffix}`);
  }
  const label = folded.slice(0, dot);
  checkLabel(label, rule);
  return { label, name: `${label}.${suffix}` };
}

function checkLabel(label: string, rule: string): void {
  if (label.length < LABEL_MIN || label.length > LABEL_MAX) {
    throw nameErrors.invalidName(`${rule}; this label has ${label.length} characters`);
  }
  if (label.startsWith('-') || label.endsWith('-')) {
    throw nameErrors.invalidName(`${rule}; a label must not begin or end with a hyphen`);
  }
  if (!LABEL_RE.test(label))
    throw nameErrors.invalidName(`${rule}; dots and other characters are not allowed`);
  if (label.slice(2, 4) === '--') {
    throw nameErrors.invalidName(
      `${rule}; hyphens in positions 3 and 4 (the punycode form xn--) are reserved`,
    );
  }
}

/** The coins a name can hold an address for: the 19 kit tickers and SOL, uppercase. */
export const NAME_ASSETS: readonly string[] = KIT_TICKERS_AND_SOL;

const assetRule = (): string => `must be an uppercase ticker such as LTC: one of ${NAME_ASSETS.join(', ')}`;

/**
 * A coin ticker from a query or path parameter: required, exactly one of {@link NAME_ASSETS} (uppercase; `ltc` is
 * refused rather than folded, so that one URL means one thing). 400 MISSING_PARAMETER / INVALID_PARAMETER.
 */
export function parseAsset(value: string | undefined): string {
  if (value === undefined || value.trim() === '')
    throw missingParam('asset', assetRule().replace(/^must be /, ''));
  if (NAME_ASSETS.includes(value)) return value;
  if (NAME_ASSETS.includes(value.toUpperCase())) {
    throw paramError('asset', `must be uppercase: ${value.toUpperCase()}, not ${value}`);
  }
  throw paramError('asset', assetRule());
}
