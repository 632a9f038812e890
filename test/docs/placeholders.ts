/**
 * The docs' placeholders (`cws_…`, `<id>`, `alice.coin`, `ltc1q…`, …) and the real values that replace them, made on
 * the running server by a `DocWorld`; `realRequest` turns a parsed example into the request the test sends.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { CurlExample, CurlRequest } from './curl-examples.ts';
import { parseCurl } from './curl-examples.ts';
import type { DocWorld } from './doc-world.ts';
import { documentIdFor } from './doc-world.ts';

/** Where the pages say the server is (`api.example.com`: the docs' name for a deployment of this server). */
const ORIGINS = ['http://127.0.0.1:4000', 'http://localhost:4000', 'https://api.example.com'];

/** A signature the reader's wallet would make, shown by a placeholder: `<base64>`, `J8x…=`, `H+…`. */
export const SIGNATURE_PLACEHOLDER = /"signature":\s*"[^"]*(?:…|<[^>"]+>)[^"]*"/;
/** What is left after substitution and is still a placeholder: `PLACEHOLDERS` does not know it yet. */
export const UNKNOWN_PLACEHOLDER = /…|<[a-z][^<>]*>/;

export const pathOf = (url: string) => url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? '';
export const route = (r: CurlRequest) => `${r.method} ${pathOf(r.url)}`;

/** A placeholder of the pages and the real value that replaces it, in this order (later ones use earlier values). */
export const PLACEHOLDERS: {
  pattern: RegExp;
  /** Only in this header. */
  only?: string;
  value: (w: DocWorld, r: CurlRequest, m: RegExpExecArray) => Promise<string>;
}[] = [
  // a name: free in a registration (the reader's or a partner's), else the reader's, with LTC and DOGE linked
  {
    pattern: /\b(?:alice|bob)\.coin\b/g,
    value: (w, r) => (REGISTRATIONS.has(route(r)) ? w.freeName() : w.ownName()),
  },
  { pattern: /cws_…/g, value: (w) => w.session() },
  { pattern: /cw_live_…/g, value: async (w) => (await w.approvedKey()).key },
  // in a primary-name or reverse example: the address the reader's name links (a primary name, for a reverse lookup)
  {
    pattern: /ltc1q…/g,
    value: (w, r) => {
      const path = pathOf(r.url);
      if (/^\/api\/reverse\//.test(path)) return w.linkedLtcAddress(true);
      if (/^\/api\/names\/[^/]+\/primary\//.test(path)) return w.linkedLtcAddress(false);
      return w.ltcAddress();
    },
  },
  { pattern: /\bL…/g, value: (w, r) => w.legacyAddress(route(r) === 'POST /api/admin/admins/revoke') },
  { pattern: /\bD\w*…/g, value: (w) => w.dogeAddress() },
  { pattern: /<id>/g, value: (w, r) => idFor(w, pathOf(r.url)) },
  { pattern: /(?<="nonce":\s*")[0-9a-f]*…(?=")/g, value: (w, r) => nonceFor(w, r) },
  { pattern: /(?<="toAccountId":\s*")[0-9a-f]*…(?=")/g, value: (w) => w.otherAccountId() },
  {
    pattern: /<id from persisted-documents\.json>/g,
    value: async (w, r) => documentIdFor(w.manifest, (bodyOf(r).variables ?? {}) as Record<string, unknown>),
  },
  { pattern: /^"…"$/g, only: 'if-none-match', value: (w, r) => w.etag(r.url) },
  // a partner request, signed by the recipe of docs/names.md (last: it signs the request as sent)
  { pattern: /<partner id>/g, value: async (w) => (await w.partner()).id },
  { pattern: /<unix seconds>/g, value: async () => String(Math.floor(Date.now() / 1000)) },
  { pattern: /<16-64 random characters>/g, value: async () => randomBytes(16).toString('hex') },
  {
    pattern: /^<hex HMAC, see docs\/names\.md>$/g,
    only: 'x-partner-signature',
    value: (w, r) => partnerSignature(w, r),
  },
];
const REGISTRATIONS = new Set(['POST /api/names', 'POST /api/partner/names']);

const bodyOf = (r: CurlRequest): Record<string, unknown> =>
  JSON.parse(r.body ?? '{}') as Record<string, unknown>;

/** `<id>` in `/{account|admin}/{api-keys|dapps}/<id>/{action}`: an id in the state the action needs. */
async function idFor(w: DocWorld, path: string): Promise<string> {
  const m = /\/(api-keys|dapps)\/<id>\/(\w+)$/.exec(path);
  const need = `${m?.[1]}/${m?.[2]}`;
  if (need === 'api-keys/approve' || need === 'api-keys/reject') return w.pendingKeyId();
  if (need === 'api-keys/revoke') return (await w.approvedKey()).id;
  if (need === 'dapps/approve' || need === 'dapps/reject') return w.submittedDappId();
  if (need === 'dapps/delist') return w.approvedDappId();
  throw new Error(`no <id> known for ${path}: teach idFor in test/docs/placeholders.ts`);
}

/** A nonce placeholder: the nonce of a real open challenge for the body's address. */
function nonceFor(w: DocWorld, r: CurlRequest): Promise<string> {
  const address = String(bodyOf(r).address);
  if (route(r) === 'POST /api/auth/session') return w.signInNonce(address);
  if (r.method === 'PUT') return w.linkNonce(pathOf(r.url), address);
  throw new Error(`no nonce known for ${route(r)}`);
}

/** docs/names.md: hex HMAC-SHA256, key SHA-256(secret), over method, path with query, timestamp, nonce, body hash. */
async function partnerSignature(w: DocWorld, r: CurlRequest): Promise<string> {
  const { pathname, search } = new URL(r.url);
  const bodyHash = createHash('sha256')
    .update(r.body ?? '')
    .digest('hex');
  const canonical = [
    r.method,
    pathname + search,
    r.headers['x-partner-timestamp'],
    r.headers['x-partner-nonce'],
    bodyHash,
  ];
  const key = createHash('sha256')
    .update((await w.partner()).secret)
    .digest();
  return createHmac('sha256', key).update(canonical.join('\n')).digest('hex');
}

async function replaceAll(s: string, w: DocWorld, r: CurlRequest, p: (typeof PLACEHOLDERS)[number]) {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(p.pattern)) {
    out += s.slice(last, m.index) + (await p.value(w, r, m as RegExpExecArray));
    last = m.index + m[0].length;
  }
  return out + s.slice(last);
}

export async function realRequest(e: CurlExample, baseUrl: string, w: DocWorld): Promise<CurlRequest> {
  let r = parseCurl(e.args);
  const origin = ORIGINS.find((o) => r.url.startsWith(`${o}/`));
  if (!origin) throw new Error(`${r.url} is not this server: mark the example as not run, with the reason`);
  r = { ...r, url: baseUrl + r.url.slice(origin.length) };
  for (const p of PLACEHOLDERS) {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers))
      headers[k] = !p.only || p.only === k ? await replaceAll(v, w, r, p) : v;
    const body = r.body === null || p.only ? r.body : await replaceAll(r.body, w, r, p);
    r = { ...r, url: p.only ? r.url : await replaceAll(r.url, w, r, p), headers, body };
  }
  // A sign-in signs an open challenge (the README asks for it one line earlier): make one for the body's address.
  if (route(r) === 'POST /api/auth/session') await w.signInNonce(String(bodyOf(r).address));
  return r;
}
