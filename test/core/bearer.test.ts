/**
 * One reader of `Authorization: Bearer …` (`src/core/bearer.ts`) for every token kind — sessions and the operator
 * token, in REST, the subgraphs and the router — with RFC 6750's case-insensitive scheme; and no other module parsing
 * the header on its own (a second reader is how the operator token once needed the exact `Bearer ` while sessions
 * took any case).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerToken, tokenMatches } from '../../src/core/bearer.ts';
import { ADMIN_TOKEN, harness, signIn, wallet } from '../accounts/harness.ts';
import type { Harness } from '../accounts/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** Parsing the header by hand: a regular expression or a prefix test on the scheme, or cutting its 7 characters. */
const HAND_MADE = /\/\^?Bearer( |\\s)|startsWith\(\s*['"`]Bearer|\.slice\(\s*7\s*\)|replace\(\s*\/\^?Bearer/i;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'generated' || name === 'node_modules' ? [] : sources(p);
    return /\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('bearerToken', () => {
  it('reads the token whatever the scheme’s case and the spaces around it', () => {
    for (const h of ['Bearer abc', 'bearer abc', 'BEARER abc', 'BeArEr \t abc  ', 'Bearer  abc'])
      expect([h, bearerToken(h)]).toEqual([h, 'abc']);
    for (const h of [
      undefined,
      '',
      'Bearer',
      'Bearer   ',
      'Basic abc',
      'Bearerabc',
      'Token abc',
      ['Bearer abc'],
    ])
      expect(bearerToken(h as string | undefined)).toBeNull();
    expect(tokenMatches(bearerToken(`bearer ${ADMIN_TOKEN}`), ADMIN_TOKEN)).toBe(true);
    expect(tokenMatches(bearerToken(`Bearer ${ADMIN_TOKEN}x`), ADMIN_TOKEN)).toBe(false);
    expect(tokenMatches(null, ADMIN_TOKEN)).toBe(false);
  });

  it('is the only reader of the header: no other module matches the scheme itself', () => {
    expect(HAND_MADE.test("h.startsWith('Bearer ') ? h.slice(7) : null")).toBe(true);
    expect(HAND_MADE.test('/^Bearer\\s+(.*)$/i.exec(h)')).toBe(true);
    expect(HAND_MADE.test("import { bearerToken } from '../../core/bearer.ts';")).toBe(false);
    const offenders: string[] = [];
    for (const dir of ['src', 'router', 'subgraphs'])
      for (const file of sources(join(ROOT, dir))) {
        const rel = relative(ROOT, file);
        if (rel !== join('src', 'core', 'bearer.ts') && HAND_MADE.test(readFileSync(file, 'utf8')))
          offenders.push(rel);
      }
    expect(offenders).toEqual([]);
  });
});

describe('every token kind takes the scheme in any case (REST)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('the operator token and a session, as `bearer`, `BEARER` and `Bearer`', async () => {
    const session = await signIn(h, wallet());
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const op = await h.app.inject({
        url: '/api/admin/admins',
        headers: { authorization: `${scheme} ${ADMIN_TOKEN}` },
      });
      expect([scheme, 'operator', op.statusCode]).toEqual([scheme, 'operator', 200]);
      const me = await h.app.inject({
        url: '/api/account/me',
        headers: { authorization: `${scheme} ${session}` },
      });
      expect([scheme, 'session', me.statusCode]).toEqual([scheme, 'session', 200]);
    }
  });
});
