/** The checks of an app's fields as a client sends them (pure): name, allowed origins, keys, version, policy. */
import { isUuid } from '../core/ids.ts';
import { APP_MAX_KEYS, APP_MAX_ORIGINS, appErrors } from './app-errors.ts';

export type DocumentsPolicy = 'any' | 'trusted-only';
export const DOCUMENTS_POLICIES: readonly DocumentsPolicy[] = ['any', 'trusted-only'];

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

export function appName(v: unknown): string {
  if (typeof v !== 'string' || !NAME.test(v)) throw appErrors.invalidName();
  return v;
}

export function appVersion(v: unknown): string {
  if (typeof v !== 'string' || !VERSION.test(v)) throw appErrors.invalidVersion();
  return v;
}

export function documentsPolicy(v: unknown): DocumentsPolicy {
  if (typeof v !== 'string' || !(DOCUMENTS_POLICIES as readonly string[]).includes(v))
    throw appErrors.invalidDocumentsPolicy();
  return v as DocumentsPolicy;
}

/**
 * Allowed origins: absent → none (any origin). Each must be written exactly as a browser sends `Origin`
 * (`scheme://host[:port]`, http or https, lowercase host, no default port, path or trailing slash), so the check at
 * request time is a plain comparison; anything else is 400 `INVALID_ORIGIN` naming it.
 */
export function originList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > APP_MAX_ORIGINS) throw appErrors.invalidOrigin(v);
  const out = new Set<string>();
  for (const o of v) {
    if (typeof o !== 'string') throw appErrors.invalidOrigin(o);
    let url: URL;
    try {
      url = new URL(o);
    } catch {
      throw appErrors.invalidOrigin(o);
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== o)
      throw appErrors.invalidOrigin(o);
    out.add(o);
  }
  return [...out];
}

export function keyIdList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > APP_MAX_KEYS || !v.every((k) => typeof k === 'string' && isUuid(k)))
    throw appErrors.invalidKeys();
  return [...new Set(v as string[])];
}
