/**
 * Pure helpers of the portal's "Apps" section (docs/apps.md, "In the portal"): the app as `GET /api/account/apps`
 * answers it, the form checks (the server's own rules of src/accounts/app-input.ts, which test/web/portal-apps.test.ts
 * holds them to), the keys an app may take, the REST error body read into a code and a message, and what a change
 * of policy or of active versions means for the app's trusted-only keys.
 */

export type DocumentsPolicy = 'any' | 'trusted-only';
export const DOCUMENTS_POLICIES: readonly DocumentsPolicy[] = ['any', 'trusted-only'];

/** One of an app's keys, with its documents policy. */
export interface AppKey {
  id: string;
  prefix: string;
  plan: string;
  status: string;
  documents: DocumentsPolicy;
}

export interface AppVersion {
  version: string;
  active: boolean;
  documents: number;
  /** ms since the epoch. */
  createdAt: number;
}

/** An app as the REST API shows it (src/accounts/apps.ts, `AppView`). */
export interface App {
  id: string;
  name: string;
  /** Allowed browser origins; empty: any. */
  origins: string[];
  keys: AppKey[];
  /** Newest first. */
  versions: AppVersion[];
  createdAt: number;
}

/** The server's limits, as docs/apps.md states them. */
export const APP_LIMITS = {
  maxOrigins: 50,
  maxKeys: 20,
  /** A manifest file larger than this is refused by the server (413 `MANIFEST_TOO_LARGE`): not sent at all. */
  manifestBytes: 1024 * 1024,
} as const;

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

export function appNameError(name: string): string | null {
  if (name === '') return 'Give the app a name.';
  return NAME.test(name)
    ? null
    : 'Use 1 to 63 characters: lowercase letters, digits and dashes, starting with a letter or digit (e.g. my-dapp).';
}

export function versionError(version: string): string | null {
  if (version === '') return 'Give the version a name, such as 1.4.0 or a commit hash.';
  return VERSION.test(version)
    ? null
    : 'Use 1 to 64 characters: letters, digits and . _ + -, starting with a letter or digit (e.g. 1.4.0).';
}

/** The origins of a textarea, one per line: lines trimmed, blank lines dropped. */
export const originLines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/**
 * Why `origin` is not written as a browser sends `Origin` (the server compares it as written), with the form to use
 * when the line is an address of the same site; null when it is fine.
 */
export function originError(origin: string): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `${origin} is not an origin: write scheme://host[:port], such as https://app.example.com.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `${origin}: only http and https origins are sent by browsers.`;
  if (url.origin !== origin)
    return `${origin} is not written as a browser sends it: write ${url.origin} (lowercase, no default port, no path or trailing slash).`;
  return null;
}

/** The first problem of an origins textarea, or null. */
export function originsError(text: string): string | null {
  const lines = originLines(text);
  if (lines.length > APP_LIMITS.maxOrigins)
    return `At most ${APP_LIMITS.maxOrigins} origins; there are ${lines.length}.`;
  for (const l of lines) {
    const e = originError(l);
    if (e) return e;
  }
  return null;
}

/** The origins as the API takes them: one per line, each once. */
export const originsInput = (text: string): string[] => [...new Set(originLines(text))];

export const originsText = (origins: readonly string[]): string => origins.join('\n');

/** A refusal of the REST API: its stable code and its message, which states what was expected. */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
}

/**
 * The refusal in a REST answer (`{ "error": { "code", "message" } }`). An answer of another shape (a proxy's page,
 * an empty body) still reads as a code and a message naming the status: the page never shows a blank.
 */
export function apiFailure(status: number, body: unknown): ApiFailure {
  const err = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof err?.code === 'string' && err.code !== '' ? err.code : 'BAD_RESPONSE';
  const message =
    typeof err?.message === 'string' && err.message !== ''
      ? err.message
      : `the server answered HTTP ${status} without an error message`;
  return { status, code, message };
}

/** The form field a refusal of `POST /api/account/apps` is about (focused and marked invalid), or null. */
export type AppField = 'name' | 'origins' | 'keys';
export function appFieldOfCode(code: string): AppField | null {
  if (code === 'INVALID_APP_NAME' || code === 'APP_EXISTS') return 'name';
  if (code === 'INVALID_ORIGIN') return 'origins';
  if (code === 'INVALID_KEYS' || code === 'KEY_NOT_FOUND' || code === 'KEY_IN_OTHER_APP') return 'keys';
  return null;
}

/** An account key as the portal lists it (the graph's `ApiKey`). */
export interface AccountKey {
  id: string;
  prefix: string;
  status: string;
  description: string;
}

export interface KeyChoice {
  id: string;
  prefix: string;
  description: string;
  status: string;
  /** The app that already uses the key (a key serves one app), or null. */
  app: string | null;
}

/**
 * The keys an app may take: the account's keys but revoked and rejected ones (they never work again), each with the
 * app that already uses it.
 */
export function keyChoices(keys: readonly AccountKey[], apps: readonly App[]): KeyChoice[] {
  const owner = new Map<string, string>();
  for (const a of apps) for (const k of a.keys) owner.set(k.id, a.name);
  return keys
    .filter((k) => k.status !== 'REVOKED' && k.status !== 'REJECTED')
    .map((k) => ({
      id: k.id,
      prefix: k.prefix,
      description: k.description,
      status: k.status,
      app: owner.get(k.id) ?? null,
    }));
}

export const policyLabel = (p: DocumentsPolicy): string =>
  p === 'trusted-only' ? 'Trusted documents only' : 'Any document';

/** What the app's keys run as it stands: a warning when a trusted-only key has no active version to run. */
export function appWarning(app: App): string | null {
  const strict = app.keys.filter((k) => k.documents === 'trusted-only');
  if (strict.length === 0 || app.versions.some((v) => v.active)) return null;
  const which = strict.map((k) => `${k.prefix}…`).join(', ');
  return `No version is active: ${which} ${strict.length === 1 ? 'is' : 'are'} trusted-only and every request with ${strict.length === 1 ? 'it' : 'them'} is refused (PERSISTED_QUERY_NOT_IN_LIST). Activate a version.`;
}

/** Said before a key is switched: what the new policy does, given the app's active versions. */
export function policyNote(app: App, policy: DocumentsPolicy): string {
  if (policy === 'any')
    return 'Runs any operation its plan allows; the app’s documents also run by their id.';
  const docs = app.versions.filter((v) => v.active).reduce((n, v) => n + v.documents, 0);
  if (docs === 0)
    return 'Runs only the documents of active versions: none is active yet, so every request would be refused.';
  return `Runs only the documents of active versions (${docs} listed); anything else is refused with PERSISTED_QUERY_NOT_IN_LIST.`;
}

/** Why a chosen manifest file is not sent, or null. */
export function manifestFileError(file: { size: number } | null): string | null {
  if (!file)
    return 'Choose the manifest file: persisted-documents.json or an Apollo persisted query manifest.';
  if (file.size === 0) return 'The file is empty: choose the manifest your build wrote.';
  if (file.size > APP_LIMITS.manifestBytes)
    return `The file has ${file.size.toLocaleString('en-US')} bytes; a manifest may have at most 1 MiB (${APP_LIMITS.manifestBytes.toLocaleString('en-US')} bytes).`;
  return null;
}

/**
 * The publish request's body: the file's text as it is (the server judges the file as written, as it does the CLI's),
 * the version, and whether it becomes active at once.
 */
export const publishBody = (
  version: string,
  manifestText: string,
  activate: boolean,
): { version: string; manifest: string; activate: boolean } => ({
  version,
  manifest: manifestText,
  activate,
});

/** The path of the account's apps, or of one app's resource (`appPath('my-dapp', 'versions')`), each part escaped. */
export const appPath = (...parts: string[]): string =>
  ['/api/account/apps', ...parts.map((p) => encodeURIComponent(p))].join('/');

export const documentsCount = (n: number): string =>
  `${n.toLocaleString('en-US')} document${n === 1 ? '' : 's'}`;
