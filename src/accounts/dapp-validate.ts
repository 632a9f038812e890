/**
 * The rules a dapp listing request must pass, the submission window and the dapp error catalog: pure functions, no
 * database. Every validation failure is a 400 whose code and message name the field.
 */
import { KIT_TICKERS } from '../catalog/assets.ts';
import { errorCatalog } from '../core/errors.ts';
import type { ApiError } from '../core/errors.ts';
import { invisibleIn, nonPublicHost } from './dapp-text.ts';

/** Chains a dapp may declare: the 19 kit tickers and Solana. */
export const DAPP_CHAINS: readonly string[] = [...new Set([...KIT_TICKERS, 'SOL'])];

export const DAPP_LIMITS = {
  /** Characters (Unicode code points). */
  name: 80,
  description: 2000,
  notes: 2000,
  url: 2048,
  email: 254,
  /** Listing requests per account per rolling window. */
  perWindow: 3,
  /** The rolling window: 24 hours. */
  windowMs: 24 * 60 * 60 * 1000,
} as const;

/** A listing request as accepted: every field checked, text kept verbatim (never trimmed or escaped). */
export interface DappInput {
  name: string;
  /** The dapp's `https://` address as given. */
  site: string;
  /** `site`'s origin (scheme, host, port), normalised by the URL parser: what the access check compares. */
  siteOrigin: string;
  icon: string;
  description: string;
  contactEmail: string;
  /** Distinct tickers from {@link DAPP_CHAINS}, in the order given. */
  chains: string[];
}

const FIELDS = ['name', 'site', 'icon', 'description', 'contactEmail', 'chains'] as const;
type Field = (typeof FIELDS)[number] | 'notes';

/** A 400 naming the field (`at`: the field itself or an item of it, `chains[2]`) and what it expects. */
const invalid = (code: string) => ({
  status: 400,
  code,
  message: (at: string, expected: string) => `${at} ${expected}`,
});

/** Errors of dapp listing requests, review and the dapp store. */
export const dappErrors = errorCatalog('dapps', {
  invalidName: invalid('INVALID_NAME'),
  invalidSite: invalid('INVALID_SITE'),
  invalidIcon: invalid('INVALID_ICON'),
  invalidDescription: invalid('INVALID_DESCRIPTION'),
  invalidContactEmail: invalid('INVALID_CONTACT_EMAIL'),
  invalidChains: invalid('INVALID_CHAINS'),
  invalidNotes: invalid('INVALID_NOTES'),
  notObject: { status: 400, code: 'INVALID_BODY', message: 'request body must be a JSON object' },
  unknownField: {
    status: 400,
    code: 'UNKNOWN_FIELD',
    message: (field: string, allowed: readonly string[]) =>
      `unknown field ${JSON.stringify(field.slice(0, 40))}: accepted fields are ${allowed.join(', ')}`,
  },
  accountNotFound: {
    status: 404,
    code: 'ACCOUNT_NOT_FOUND',
    message: (id: string) => `no account with id ${JSON.stringify(id.slice(0, 80))}`,
  },
  /** `next`: when the next request is allowed (ISO 8601); `wait`: seconds until then. */
  limited: {
    status: 429,
    code: 'DAPP_LIMIT_REACHED',
    message: (next: string, _wait: number) =>
      `at most ${DAPP_LIMITS.perWindow} dapp listing requests per account in 24 hours: the next is allowed at ${next}`,
    headers: (_next: string, wait: number) => ({ 'retry-after': String(wait) }),
    // The wait in whole seconds where a GraphQL client cannot see the response's headers.
    extensions: (_next: string, wait: number) => ({ retryAfter: wait }),
  },
  notFound: {
    status: 404,
    code: 'DAPP_NOT_FOUND',
    message: (id: string) =>
      `no dapp with id ${JSON.stringify(id.slice(0, 80))}: ids are UUIDs from the dapp list`,
  },
  stateConflict: {
    status: 409,
    code: 'DAPP_STATE_CONFLICT',
    message: (id: string, current: string, action: string, from: string) =>
      `dapp ${id} is ${current}: only a ${from} dapp can be ${action}`,
  },
});

const INVALID = {
  name: dappErrors.invalidName,
  site: dappErrors.invalidSite,
  icon: dappErrors.invalidIcon,
  description: dappErrors.invalidDescription,
  contactEmail: dappErrors.invalidContactEmail,
  chains: dappErrors.invalidChains,
  notes: dappErrors.invalidNotes,
} satisfies Record<Field, (at: string, expected: string) => ApiError>;

/** The 400 of `field` (`at`: the field itself or an item of it, `chains[2]`): its code names the field. */
const invalidField = (field: Field, expected: string, at: string = field): ApiError =>
  INVALID[field](at, expected);

/** Control characters: C0, DEL and C1 (Unicode `Cc`). */
const CONTROL = /\p{Cc}/u;
/** Multi-line text: tab, LF and CR are fine; other control characters (NUL cannot even be stored) are not. */
const CONTROL_EXCEPT_LINES = /(?![\t\n\r])\p{Cc}/u;
// A lone UTF-16 surrogate cannot be stored as UTF-8: it would come back changed.
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * An address: RFC 5322's dot-atom before the `@` (no leading, trailing or double dot) without the characters that
 * mean something in a URL — `? & % # / =` — so no `mailto:` query (`?cc=…&body=…`) or percent-escape can ride in
 * one; at most 64 characters. After it a host name with at least one dot (WHATWG's `input type=email` labels).
 */
const LOCAL_CHAR = "[a-zA-Z0-9!$'*+^_`{|}~-]";
const EMAIL = new RegExp(
  `^(?=[^@]{1,64}@)${LOCAL_CHAR}+(?:\\.${LOCAL_CHAR}+)*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$`,
);

export interface DappRules {
  /**
   * Sites and icons on loopback, private, link-local and other non-public hosts (`localhost`, `10.0.0.1`, `[::1]`…)
   * are accepted: for development only (`DAPP_ALLOW_PRIVATE_URLS`). Default false.
   */
  allowPrivateHosts?: boolean | undefined;
}

/** Checks a listing request body (already parsed JSON); throws the 400 naming the first field that fails. */
export function validateDappInput(body: unknown, rules: DappRules = {}): DappInput {
  const b = object(body);
  for (const k of Object.keys(b)) {
    if (!(FIELDS as readonly string[]).includes(k)) throw dappErrors.unknownField(k, FIELDS);
  }
  const allowPrivate = rules.allowPrivateHosts === true;
  const name = text(b.name, 'name', DAPP_LIMITS.name, false);
  const site = httpsUrl(b.site, 'site', allowPrivate);
  const icon = httpsUrl(b.icon, 'icon', allowPrivate).href;
  const description = text(b.description, 'description', DAPP_LIMITS.description, true);
  const contactEmail = email(b.contactEmail);
  const chains = chainList(b.chains);
  return { name, site: site.href, siteOrigin: site.origin, icon, description, contactEmail, chains };
}

/** Review notes: absent/null → null when optional; otherwise 1 to 2,000 characters, not blank. */
export function validateNotes(v: unknown, required: boolean): string | null {
  if ((v === undefined || v === null) && !required) return null;
  return text(v, 'notes', DAPP_LIMITS.notes, true);
}

/** A review body `{ "notes"? }`: no body counts as `{}`; other fields → 400. */
export function reviewBody(body: unknown): { notes?: unknown } {
  if (body === undefined || body === null) return {};
  const b = object(body);
  for (const k of Object.keys(b)) if (k !== 'notes') throw dappErrors.unknownField(k, ['notes']);
  return b;
}

/**
 * The rolling window: given the creation times of the account's requests inside the window, whether one more is
 * allowed now, or when it will be (the time the request that must leave first leaves the window).
 */
export function nextSubmission(
  inWindow: readonly number[],
  now: number,
  limit: number = DAPP_LIMITS.perWindow,
  windowMs: number = DAPP_LIMITS.windowMs,
): { allowed: true } | { allowed: false; nextAt: number } {
  const recent = inWindow.filter((t) => t > now - windowMs).sort((a, b) => a - b);
  if (recent.length < limit) return { allowed: true };
  // Once this one leaves, limit - 1 remain: one more fits.
  return { allowed: false, nextAt: (recent[recent.length - limit] as number) + windowMs };
}

/**
 * The origin an access-check query names: any `http(s)://` URL (path, query and trailing slash ignored) → its
 * normalised origin; anything else → null.
 */
export function parseOrigin(v: string): string | null {
  if (v.length > DAPP_LIMITS.url || /\s/.test(v) || CONTROL.test(v)) return null;
  const u = safeUrl(v);
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || !u.hostname) return null;
  if (u.username || u.password) return null;
  return u.origin;
}

function object(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw dappErrors.notObject();
  return body as Record<string, unknown>;
}

function text(v: unknown, field: Field, max: number, multiline: boolean): string {
  const rule = `is required: 1 to ${max} characters${multiline ? '' : ' on one line'}, not blank`;
  if (typeof v !== 'string' || v.trim() === '') throw invalidField(field, rule);
  if ([...v].length > max) throw invalidField(field, `must be at most ${max} characters`);
  if ((multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(v) || LONE_SURROGATE.test(v)) {
    throw invalidField(
      field,
      `must not contain control characters${multiline ? ' other than tab and line breaks' : ''}`,
    );
  }
  const invisible = invisibleIn(v);
  if (invisible !== null)
    throw invalidField(
      field,
      `must not contain invisible or direction-changing characters (found ${invisible}): bidirectional overrides, zero-width and other format characters`,
    );
  return v;
}

/**
 * An `https://` URL exactly as the WHATWG URL parser writes it (lowercase host, punycode, no default port, escapes
 * where the parser puts them), so that what is shown is what a browser opens; the one difference allowed is the `/`
 * of an empty path (`https://app.example`). No quotes, spaces or control characters, no credentials, and a public
 * host unless `allowPrivate`.
 */
function httpsUrl(
  v: unknown,
  field: 'site' | 'icon',
  allowPrivate: boolean,
): { href: string; origin: string } {
  const rule = `is required: an https:// URL of at most ${DAPP_LIMITS.url} characters`;
  if (typeof v !== 'string' || v === '') throw invalidField(field, rule);
  if (v.length > DAPP_LIMITS.url) throw invalidField(field, `must be at most ${DAPP_LIMITS.url} characters`);
  if (/[\s"']/.test(v) || CONTROL.test(v) || LONE_SURROGATE.test(v))
    throw invalidField(field, 'must not contain quotes, spaces or control characters');
  const u = safeUrl(v);
  if (!u || u.protocol !== 'https:' || !u.hostname)
    throw invalidField(field, `must be an https:// URL such as https://app.example.com/`);
  if (u.username || u.password) throw invalidField(field, 'must not contain a user name or password');
  if (u.href !== v && u.href !== `${v}/`) {
    const as = u.href.length <= 200 ? `: ${u.href}` : '';
    throw invalidField(
      field,
      `must be written as a URL parser writes it (lowercase host, punycode, no default port, percent-escapes)${as}`,
    );
  }
  const kind = allowPrivate ? null : nonPublicHost(u.hostname);
  if (kind !== null) throw invalidField(field, `must be on a public host: ${u.hostname} is ${kind}`);
  // Verbatim as given; the origin as the browser will report it.
  return { href: v, origin: u.origin };
}

function email(v: unknown): string {
  if (typeof v !== 'string' || v === '')
    throw invalidField('contactEmail', 'is required: an e-mail address such as dev@example.com');
  if (v.length > DAPP_LIMITS.email || !EMAIL.test(v))
    throw invalidField(
      'contactEmail',
      `must be an e-mail address such as dev@example.com (letters, digits and ! $ ' * + - ^ _ \` { | } ~ between single dots before the @; no ? & % # / =), at most ${DAPP_LIMITS.email} characters`,
    );
  return v;
}

function chainList(v: unknown): string[] {
  const rule = `is required: a non-empty array of tickers from ${DAPP_CHAINS.join(', ')}`;
  if (!Array.isArray(v) || v.length === 0) throw invalidField('chains', rule);
  if (v.length > DAPP_CHAINS.length) throw invalidField('chains', `has at most ${DAPP_CHAINS.length} items`);
  const seen = new Set<string>();
  v.forEach((c: unknown, i) => {
    if (typeof c !== 'string' || !DAPP_CHAINS.includes(c)) {
      const got = typeof c === 'string' ? `; got ${JSON.stringify(c.slice(0, 20))}` : '';
      throw invalidField(
        'chains',
        `must be an uppercase ticker from ${DAPP_CHAINS.join(', ')}${got}`,
        `chains[${i}]`,
      );
    }
    if (seen.has(c)) throw invalidField('chains', `repeats ${c}: list each chain once`, `chains[${i}]`);
    seen.add(c);
  });
  return [...seen];
}

function safeUrl(v: string): URL | null {
  try {
    return new URL(v);
  } catch {
    return null;
  }
}
