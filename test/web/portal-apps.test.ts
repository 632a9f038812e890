/**
 * The portal's Apps helpers (src/web/pages/portal/apps-logic.ts) against the server's own rules: a name, a version
 * or an origin the page lets through is one the server accepts, and one it refuses the server refuses; the limits are
 * the server's; a REST refusal always reads as a code and a message.
 */
import { describe, expect, it } from 'vitest';
import {
  APP_MAX_KEYS,
  APP_MAX_ORIGINS,
  MANIFEST_MAX_BYTES,
  appErrors,
} from '../../src/accounts/app-errors.ts';
import {
  DOCUMENTS_POLICIES as SERVER_POLICIES,
  appName,
  appVersion,
  originList,
} from '../../src/accounts/app-input.ts';
import type { App } from '../../src/web/pages/portal/apps-logic.ts';
import {
  APP_LIMITS,
  DOCUMENTS_POLICIES,
  apiFailure,
  appFieldOfCode,
  appNameError,
  appPath,
  appWarning,
  keyChoices,
  manifestFileError,
  originError,
  originLines,
  originsError,
  originsInput,
  policyNote,
  publishBody,
  versionError,
} from '../../src/web/pages/portal/apps-logic.ts';

const accepts = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

describe('the form checks are the server’s', () => {
  it('limits and policies', () => {
    expect(APP_LIMITS).toEqual({
      maxOrigins: APP_MAX_ORIGINS,
      maxKeys: APP_MAX_KEYS,
      manifestBytes: MANIFEST_MAX_BYTES,
    });
    expect(DOCUMENTS_POLICIES).toEqual(SERVER_POLICIES);
  });

  it.each([
    'my-dapp',
    'a',
    '0day',
    'x'.repeat(63),
    'x'.repeat(64),
    '',
    '-lead',
    'My-Dapp',
    'my_dapp',
    'my dapp',
    'dapp\n',
    'ünï',
  ])('app name %j', (name) => {
    expect(appNameError(name) === null).toBe(accepts(() => appName(name)));
  });

  it.each([
    '1.4.0',
    'a1b2c3d',
    'v1+build.7_rc-1',
    'x'.repeat(64),
    'x'.repeat(65),
    '',
    '.1',
    '-x',
    '1 0',
    '1/0',
    'é',
  ])('version %j', (v) => {
    expect(versionError(v) === null).toBe(accepts(() => appVersion(v)));
  });

  it.each([
    'https://app.example.com',
    'http://localhost:5173',
    'https://app.example.com:8443',
    'http://127.0.0.1:3000',
    'https://xn--bcher-kva.example',
    'https://app.example.com/',
    'https://App.Example.com',
    'https://app.example.com:443',
    'https://app.example.com/path',
    'https://bücher.example',
    'ftp://files.example.com',
    'chrome-extension://abcdef',
    'app.example.com',
    'https://user@app.example.com',
    'null',
    '',
  ])('origin %j', (o) => {
    expect(originError(o) === null).toBe(accepts(() => originList([o])));
  });

  it('says how to write an origin a browser would send differently', () => {
    expect(originError('https://App.Example.com:443/')).toBe(
      'https://App.Example.com:443/ is not written as a browser sends it: write https://app.example.com (lowercase, no default port, no path or trailing slash).',
    );
    expect(originError('app.example.com')).toMatch(/is not an origin: write scheme:\/\/host\[:port\]/);
    expect(originError('ftp://x.example')).toMatch(/only http and https/);
  });

  it('reads origins one per line, blank lines and spaces dropped, each once; the textarea as the server judges it', () => {
    const text = '  https://a.example \r\n\nhttp://localhost:5173\nhttps://a.example\n';
    expect(originLines(text)).toEqual(['https://a.example', 'http://localhost:5173', 'https://a.example']);
    expect(originsInput(text)).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(originList(originsInput(text))).toEqual(originsInput(text));
    expect(originsError(text)).toBeNull();
    expect(originsError('')).toBeNull();
    expect(originsError('https://a.example\nhttps://b.example/')).toMatch(
      /^https:\/\/b\.example\/ is not written/,
    );
    const many = Array.from({ length: APP_MAX_ORIGINS + 1 }, (_, i) => `https://a${i}.example`).join('\n');
    expect(originsError(many)).toBe(`At most ${APP_MAX_ORIGINS} origins; there are ${APP_MAX_ORIGINS + 1}.`);
    expect(accepts(() => originList(originsInput(many)))).toBe(false);
  });
});

describe('refusals', () => {
  it('reads the REST error body, and never yields a blank', () => {
    const e = appErrors.versionExists('my-dapp', '1.0.0');
    expect(apiFailure(409, e.toBody())).toEqual({ status: 409, code: 'VERSION_EXISTS', message: e.message });
    for (const body of [null, 'Bad Gateway', {}, { error: {} }, { error: { code: '', message: '' } }]) {
      const f = apiFailure(502, body);
      expect(f.code).toBe('BAD_RESPONSE');
      expect(f.message).toBe('the server answered HTTP 502 without an error message');
    }
  });

  it('maps the registration’s codes to the field they are about', () => {
    expect(appFieldOfCode(appErrors.invalidOrigin('x').code)).toBe('origins');
    expect(appFieldOfCode(appErrors.appExists('x').code)).toBe('name');
    expect(appFieldOfCode(appErrors.invalidName().code)).toBe('name');
    expect(appFieldOfCode(appErrors.keyInOtherApp('k').code)).toBe('keys');
    expect(appFieldOfCode('KEY_NOT_FOUND')).toBe('keys');
    expect(appFieldOfCode('SESSION_EXPIRED')).toBeNull();
  });
});

const app = (over: Partial<App> = {}): App => ({
  id: 'a1',
  name: 'my-dapp',
  origins: [],
  keys: [],
  versions: [],
  createdAt: 0,
  ...over,
});
const key = (id: string, documents: 'any' | 'trusted-only' = 'any') => ({
  id,
  prefix: `cw_${id}`,
  plan: 'free',
  status: 'APPROVED',
  documents,
});

describe('keys and policies', () => {
  it('offers the account’s usable keys, each with the app that already holds it', () => {
    const keys = ['k1', 'k2', 'k3', 'k4'].map((id, i) => ({
      id,
      prefix: `cw_${id}`,
      description: `key ${id}`,
      status: ['APPROVED', 'PENDING', 'REVOKED', 'REJECTED'][i] as string,
    }));
    const choices = keyChoices(keys, [app({ name: 'other', keys: [key('k2')] })]);
    expect(choices.map((c) => [c.id, c.app])).toEqual([
      ['k1', null],
      ['k2', 'other'],
    ]);
  });

  it('warns when a trusted-only key has no active version to run', () => {
    expect(appWarning(app({ keys: [key('k1')] }))).toBeNull();
    const strict = app({ keys: [key('k1', 'trusted-only')] });
    expect(appWarning(strict)).toBe(
      'No version is active: cw_k1… is trusted-only and every request with it is refused (PERSISTED_QUERY_NOT_IN_LIST). Activate a version.',
    );
    const inactive = { version: '1', active: false, documents: 3, createdAt: 0 };
    expect(appWarning({ ...strict, versions: [inactive] })).not.toBeNull();
    expect(appWarning({ ...strict, versions: [{ ...inactive, active: true }] })).toBeNull();
  });

  it('says what a policy does with the app’s active documents', () => {
    const versions = [
      { version: '2', active: true, documents: 5, createdAt: 2 },
      { version: '1', active: true, documents: 3, createdAt: 1 },
      { version: '0', active: false, documents: 9, createdAt: 0 },
    ];
    expect(policyNote(app({ versions }), 'trusted-only')).toBe(
      'Runs only the documents of active versions (8 listed); anything else is refused with PERSISTED_QUERY_NOT_IN_LIST.',
    );
    expect(policyNote(app(), 'trusted-only')).toMatch(
      /none is active yet, so every request would be refused/,
    );
    expect(policyNote(app(), 'any')).toMatch(/^Runs any operation its plan allows/);
  });
});

describe('publishing', () => {
  it('refuses a file the server would refuse for its size, before sending it', () => {
    expect(manifestFileError(null)).toMatch(/^Choose the manifest file/);
    expect(manifestFileError({ size: 0 })).toMatch(/empty/);
    expect(manifestFileError({ size: MANIFEST_MAX_BYTES })).toBeNull();
    expect(manifestFileError({ size: MANIFEST_MAX_BYTES + 1 })).toBe(
      'The file has 1,048,577 bytes; a manifest may have at most 1 MiB (1,048,576 bytes).',
    );
  });

  it('sends the file’s text as written, and escapes names in paths', () => {
    const text = '{ "sha256:ab": "query { x }" }\n';
    expect(publishBody('1.0.0', text, true)).toEqual({ version: '1.0.0', manifest: text, activate: true });
    expect(appPath()).toBe('/api/account/apps');
    expect(appPath('my-dapp', 'versions', '1.0+b/2', 'activate')).toBe(
      '/api/account/apps/my-dapp/versions/1.0%2Bb%2F2/activate',
    );
  });
});
