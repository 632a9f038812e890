/**
 * The portal's pure helpers (no DOM, no network): plans, the client-side mirror of the server's rules for API key
 * requests and dapp listing requests (src/rest/accounts/key-routes.ts, src/accounts/dapp-validate.ts — the server
 * stays the judge: its errors are shown next to the field they name), the three-per-24-hours submission window, and
 * the usage chart's series. `test/web/portal.test.ts` checks them against the server's own functions.
 */
import { KIT_TICKERS } from '../../../kit/tickers.ts';
import type { Plan } from '../../generated/graphql.ts';

export interface PlanInfo {
  plan: Plan;
  label: string;
  /** Requests per minute (enterprise: the most an administrator may set). */
  perMinute: number;
  /** What the request form says about the limit. */
  limit: string;
}

/** The plans a key may be requested for, with their per-minute limits (docs/plans-and-limits.md). */
export const PLANS: readonly PlanInfo[] = [
  { plan: 'FREE', label: 'Free', perMinute: 600, limit: '600 requests per minute' },
  { plan: 'PRO', label: 'Pro', perMinute: 3000, limit: '3,000 requests per minute' },
  {
    plan: 'ENTERPRISE',
    label: 'Enterprise',
    perMinute: 10_000,
    limit: 'up to 10,000 requests per minute, agreed and set on approval',
  },
];

export const planLabel = (p: Plan): string => PLANS.find((x) => x.plan === p)?.label ?? p;

/** Chains a dapp may declare: the 19 kit tickers and Solana (the server's `DAPP_CHAINS`). */
export const DAPP_CHAINS: readonly string[] = [...KIT_TICKERS, 'SOL'];

export const LIMITS = {
  keyDescription: 500,
  dappName: 80,
  dappDescription: 2000,
  url: 2048,
  email: 254,
  /** Dapp listing requests per account per rolling window. */
  perWindow: 3,
  windowMs: 24 * 60 * 60 * 1000,
} as const;

// eslint-disable-next-line no-control-regex
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /\p{Cs}/u;
// WHATWG's `input type=email` rule with at least one dot in the domain, as the server checks it.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

const codePoints = (s: string): number => [...s].length;

/** The API key request's description: an error message, or null when the server will accept it. */
export function keyDescriptionError(v: string): string | null {
  if (v.trim() === '') return 'Describe what the key is for (the reviewer reads it).';
  if (v.length > LIMITS.keyDescription) return `At most ${LIMITS.keyDescription} characters.`;
  if (CONTROL_EXCEPT_LINES.test(v) || LONE_SURROGATE.test(v))
    return 'Remove the control characters (tab and line breaks are fine).';
  return null;
}

export type DappField = 'name' | 'site' | 'icon' | 'description' | 'contactEmail' | 'chains';
export const DAPP_FIELDS: readonly DappField[] = [
  'name',
  'site',
  'icon',
  'description',
  'contactEmail',
  'chains',
];

export interface DappDraft {
  name: string;
  site: string;
  icon: string;
  description: string;
  contactEmail: string;
  chains: readonly string[];
}

export const emptyDraft = (): DappDraft => ({
  name: '',
  site: '',
  icon: '',
  description: '',
  contactEmail: '',
  chains: [],
});

/** Dapp text: every control character (C0, DEL, C1), as the server's rule (`src/accounts/dapp-validate.ts`). */
const DAPP_CONTROL = /\p{Cc}/u;
const DAPP_CONTROL_EXCEPT_LINES = /(?![\t\n\r])\p{Cc}/u;
/**
 * Invisible and direction-changing characters, as the server's rule (`src/accounts/dapp-text.ts`): format characters,
 * line and paragraph separators, Hangul fillers; the joiners of emoji sequences and between letters excepted.
 */
const INVISIBLE = /[\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]/u;
const ZWJ_IN_EMOJI =
  /(?<=\p{Extended_Pictographic}(?:\u{fe0f}|\p{Emoji_Modifier})?)\u200d(?=\p{Extended_Pictographic})/gu;
const ZWNJ_BETWEEN_LETTERS = /(?<=\p{L}\p{M}*)\u200c(?=\p{L})/gu;
const hasInvisible = (v: string): boolean =>
  INVISIBLE.test(v.replace(ZWJ_IN_EMOJI, 'j').replace(ZWNJ_BETWEEN_LETTERS, 'j'));
const INVISIBLE_TEXT = 'Remove the invisible or direction-changing characters (such as U+202E).';

/**
 * An https:// URL as the server takes it: no quotes, spaces or control characters, and written exactly as the URL
 * parser writes it (but for the `/` of an empty path). Hosts that are not public are the server's to refuse: it may
 * allow them for development.
 */
function httpsUrlError(v: string, what: string): string | null {
  if (v === '') return `Enter the ${what}: an https:// URL.`;
  if (v.length > LIMITS.url) return `At most ${LIMITS.url} characters.`;
  if (/[\s"']/.test(v) || DAPP_CONTROL.test(v) || LONE_SURROGATE.test(v))
    return 'A URL has no quotes or spaces.';
  let u: URL | null = null;
  try {
    u = new URL(v);
  } catch {
    u = null;
  }
  if (!u || u.protocol !== 'https:' || !u.hostname)
    return 'Must be an https:// URL, such as https://app.example.com/.';
  if (u.username || u.password) return 'Must not contain a user name or password.';
  if (u.href !== v && u.href !== `${v}/`) return `Write it as ${u.href}`;
  return null;
}

/** One field of a dapp listing request: an error message, or null when the server's rule holds. */
export function dappFieldError(field: DappField, d: DappDraft): string | null {
  switch (field) {
    case 'name': {
      const v = d.name;
      if (v.trim() === '') return 'Enter the dapp’s name.';
      if (codePoints(v) > LIMITS.dappName) return `At most ${LIMITS.dappName} characters.`;
      if (DAPP_CONTROL.test(v) || LONE_SURROGATE.test(v)) return 'One line, without control characters.';
      if (hasInvisible(v)) return INVISIBLE_TEXT;
      return null;
    }
    case 'site':
      return httpsUrlError(d.site, 'dapp’s address');
    case 'icon':
      return httpsUrlError(d.icon, 'icon’s address');
    case 'description': {
      const v = d.description;
      if (v.trim() === '') return 'Describe the dapp.';
      if (codePoints(v) > LIMITS.dappDescription) return `At most ${LIMITS.dappDescription} characters.`;
      if (DAPP_CONTROL_EXCEPT_LINES.test(v) || LONE_SURROGATE.test(v))
        return 'Remove the control characters (tab and line breaks are fine).';
      if (hasInvisible(v)) return INVISIBLE_TEXT;
      return null;
    }
    case 'contactEmail': {
      const v = d.contactEmail;
      if (v === '') return 'Enter an e-mail address the reviewers can reach you at.';
      if (v.length > LIMITS.email || !EMAIL.test(v))
        return 'Must be an e-mail address such as dev@example.com.';
      return null;
    }
    case 'chains': {
      if (d.chains.length === 0) return 'Choose at least one chain.';
      const bad = d.chains.find((c) => !DAPP_CHAINS.includes(c));
      if (bad !== undefined) return `${bad} is not a supported chain.`;
      if (new Set(d.chains).size !== d.chains.length) return 'Choose each chain once.';
      return null;
    }
  }
}

/** Every failing field of a draft (empty when the server's rules all hold). */
export function dappErrors(d: DappDraft): Partial<Record<DappField, string>> {
  const out: Partial<Record<DappField, string>> = {};
  for (const f of DAPP_FIELDS) {
    const e = dappFieldError(f, d);
    if (e !== null) out[f] = e;
  }
  return out;
}

/** The draft as the graph's `DappInput`: the chains in the catalog's order. */
export const dappInput = (d: DappDraft): DappDraft & { chains: string[] } => ({
  name: d.name,
  site: d.site,
  icon: d.icon,
  description: d.description,
  contactEmail: d.contactEmail,
  chains: DAPP_CHAINS.filter((c) => d.chains.includes(c)),
});

const FIELD_OF_CODE: Record<string, DappField> = {
  INVALID_NAME: 'name',
  INVALID_SITE: 'site',
  INVALID_ICON: 'icon',
  INVALID_DESCRIPTION: 'description',
  INVALID_CONTACT_EMAIL: 'contactEmail',
  INVALID_CHAINS: 'chains',
};

/** The form field a server error code names (`INVALID_SITE` → `site`); null for errors of the whole request. */
export const dappFieldOfCode = (code: string): DappField | null => FIELD_OF_CODE[code] ?? null;

export interface SubmissionWindow {
  /** Requests in the last 24 hours. */
  used: number;
  /** How many more may be sent now. */
  left: number;
  /** When all are used: when the next one is allowed (the oldest of the last three turns 24 hours old). */
  nextAt: number | null;
  /** When some are used: when the next of them leaves the window (a slot comes back). */
  freesAt: number | null;
}

/**
 * The rolling three-per-24-hours window from the account's own requests (creation times, ms), as the server counts
 * it (`nextSubmission` in src/accounts/dapp-validate.ts): every request counts, whatever became of it, and one exactly
 * 24 hours old has left.
 */
export function submissionWindow(
  createdAt: readonly number[],
  now: number,
  limit: number = LIMITS.perWindow,
  windowMs: number = LIMITS.windowMs,
): SubmissionWindow {
  const recent = createdAt.filter((t) => t > now - windowMs).sort((a, b) => a - b);
  const used = recent.length;
  const left = Math.max(0, limit - used);
  const oldest = recent[0];
  return {
    used,
    left,
    nextAt: left === 0 ? (recent[used - limit] as number) + windowMs : null,
    freesAt: left > 0 && oldest !== undefined ? oldest + windowMs : null,
  };
}

export interface UsageMinute {
  minute: string;
  admitted: number;
  rateLimited: number;
  unauthorized: number;
}

export const USAGE_COLORS = { admitted: '#1d4ed8', rateLimited: '#c2410c', unauthorized: '#7e22ce' } as const;

export interface UsageView {
  series: { name: string; color: string; dash?: string; points: { x: number; y: number }[] }[];
  markers: { x: number; label: string; color: string }[];
  totals: { admitted: number; rateLimited: number; unauthorized: number };
  /** No minute in the data. */
  empty: boolean;
}

/**
 * The usage chart's data: one line per outcome (admitted, 429, 401), and a marker at each minute with refusals, so a
 * burst of 429s or 401s stands out even when the admitted line dwarfs it.
 */
export function usageView(usage: readonly UsageMinute[], timeLabel: (ms: number) => string): UsageView {
  const rows = usage
    .map((u) => ({ ...u, x: Date.parse(u.minute) }))
    .filter((u) => Number.isFinite(u.x))
    .sort((a, b) => a.x - b.x);
  const totals = { admitted: 0, rateLimited: 0, unauthorized: 0 };
  const markers: UsageView['markers'] = [];
  for (const r of rows) {
    totals.admitted += r.admitted;
    totals.rateLimited += r.rateLimited;
    totals.unauthorized += r.unauthorized;
    if (r.rateLimited > 0)
      markers.push({
        x: r.x,
        label: `${timeLabel(r.x)}: ${r.rateLimited} refused by the rate limit (429)`,
        color: USAGE_COLORS.rateLimited,
      });
    if (r.unauthorized > 0)
      markers.push({
        x: r.x,
        label: `${timeLabel(r.x)}: ${r.unauthorized} refused as unauthorized (401)`,
        color: USAGE_COLORS.unauthorized,
      });
  }
  // Solid, dashed and dotted: the lines differ by more than colour (and stay apart where they overlap).
  const line = (name: string, color: string, dash: string | null, pick: (r: UsageMinute) => number) => ({
    name,
    color,
    ...(dash ? { dash } : {}),
    points: rows.map((r) => ({ x: r.x, y: pick(r) })),
  });
  return {
    series: [
      line('Admitted', USAGE_COLORS.admitted, null, (r) => r.admitted),
      line('Rate limited (429)', USAGE_COLORS.rateLimited, '7 4', (r) => r.rateLimited),
      line('Unauthorized (401)', USAGE_COLORS.unauthorized, '2 3', (r) => r.unauthorized),
    ],
    markers,
    totals,
    empty: rows.length === 0,
  };
}

const plural = (n: number, one: string, many: string): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** One sentence of a key's last hour ("12 requests admitted, 2 refused by the rate limit (429), none unauthorized"). */
export function usageSummary(t: UsageView['totals']): string {
  if (t.admitted + t.rateLimited + t.unauthorized === 0) return 'No requests with this key in the last hour.';
  return `${plural(t.admitted, 'request', 'requests')} admitted, ${t.rateLimited.toLocaleString('en-US')} refused by the rate limit (429), ${t.unauthorized.toLocaleString('en-US')} refused as unauthorized (401) in the last hour.`;
}

/** How a wallet error reads on the page (EIP-1193 codes; the reason in `data.reason`). */
export function walletErrorMessage(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown; data?: { reason?: unknown } } | null;
  const code = typeof err?.code === 'number' ? err.code : null;
  const reason = typeof err?.data?.reason === 'string' ? err.data.reason : null;
  const message = typeof err?.message === 'string' ? err.message : String(e);
  if (code === 4001) return 'You declined the request in your wallet. Sign in again when you are ready.';
  if (reason === 'DAPP_NOT_LISTED')
    return `Your wallet gives its API only to listed dapps and this portal is not listed for it (${message}).`;
  if (reason === 'NO_WALLET_FOR_CHAIN')
    return 'Sign-in needs a Litecoin (LTC) wallet: add one in Coin Wallet first.';
  return reason ? `${reason}: ${message}` : message;
}

/**
 * What the new-key dialog says about the key's state, from the key as the account's list holds it now (it changes
 * while the dialog is open when an administrator decides): pending, approved (with its limit), rejected (with the
 * reason) or revoked.
 */
export function newKeyStateText(k: {
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'REVOKED';
  limitPerMinute: number;
  rejectionReason: string | null;
}): string {
  switch (k.status) {
    case 'PENDING':
      return 'It stays pending until an administrator approves it; the list below shows its status.';
    case 'APPROVED':
      return `An administrator approved it: it works now, up to ${k.limitPerMinute.toLocaleString('en-US')} requests a minute.`;
    case 'REJECTED':
      return `An administrator rejected it${k.rejectionReason ? `: ${k.rejectionReason}` : ''}. It will not work; you may request another.`;
    case 'REVOKED':
      return 'It has been revoked and no longer works.';
  }
}
