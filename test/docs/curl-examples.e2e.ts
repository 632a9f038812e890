/**
 * Every `curl` example of README.md and docs/*.md, run against the real `coinwallet serve`: read from the pages'
 * ```sh blocks and inline `curl …` spans (nothing here lists them, so a new example runs as soon as it is written),
 * placeholders replaced by real values made for each example (placeholders.ts, doc-world.ts), sent as curl would
 * send it, and expected to answer 2xx — or what `BY_DESIGN` says, for an example that cannot succeed as written.
 * A page exempts an example with `# not run by the docs test: <why>`; `NOT_RUN` must list the same ones.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import type { CurlRequest } from './curl-examples.ts';
import { curlExamples, curlLineCount } from './curl-examples.ts';
import { DocWorld } from './doc-world.ts';
import { SIGNATURE_PLACEHOLDER, UNKNOWN_PLACEHOLDER, realRequest, route } from './placeholders.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MANIFEST = join(ROOT, 'clients', 'graph', 'generated', 'persisted-documents.json');
const ADMIN_TOKEN = 'docs-test-operator-token-0123456789';
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const TEXT = new Map(PAGES.map((p) => [p, readFileSync(join(ROOT, p), 'utf8')]));

/** Variables the pages use without setting them: what the reader is told to have. */
const READER_ENV = new Map([
  ['BASE', 'http://127.0.0.1:4000'],
  ['TOKEN', 'cws_…'],
  ['SESSION', 'cws_…'],
  ['ADMIN_SESSION', 'cws_…'],
  ['KEY', 'cw_live_…'],
  ['ID', '<id>'],
  ['PARTNER_ID', '<partner id>'],
  ['ADMIN_TOKEN', ADMIN_TOKEN],
]);
/** Examples a page marks `# not run by the docs test: <why>`; the page and this list must agree. */
const NOT_RUN: { where: string; why: string }[] = [
  {
    where: 'docs/apps.md:350',
    why: 'reads the app my-dapp of step 2, which the docs test does not register (test/apps/usage.test.ts runs this read)',
  },
];

/** Examples that cannot answer 2xx as written, and what they answer instead (the code must be in the docs). */
const BY_DESIGN: {
  example: string;
  matches: (r: CurlRequest) => boolean;
  status: number;
  code: string | null;
  why: string;
}[] = [
  {
    example: 'POST /api/auth/session with a placeholder signature (`<base64>`, `J8x…=`)',
    matches: (r) => route(r) === 'POST /api/auth/session' && SIGNATURE_PLACEHOLDER.test(r.body ?? ''),
    status: 400,
    code: 'MALFORMED_SIGNATURE',
    why: 'the wallet signs the challenge text; the example shows where the signature goes (all else is real)',
  },
  {
    example: 'PUT /api/names/{name}/addresses/{asset} with a placeholder signature (`<base64>`, `H+…`)',
    matches: (r) =>
      /^PUT \/api\/names\/[^/]+\/addresses\/[^/]+$/.test(route(r)) &&
      SIGNATURE_PLACEHOLDER.test(r.body ?? ''),
    status: 400,
    code: 'MALFORMED_SIGNATURE',
    why: "the address's wallet signs the link challenge; the example shows where the signature goes",
  },
  {
    example: 'PUT /api/names/{name}/primary/{asset} with a placeholder signature (`<base64>`, `H+…`)',
    matches: (r) =>
      /^PUT \/api\/names\/[^/]+\/primary\/[^/]+$/.test(route(r)) && SIGNATURE_PLACEHOLDER.test(r.body ?? ''),
    status: 400,
    code: 'MALFORMED_SIGNATURE',
    why: "the address's wallet signs the primary-name challenge; the example shows where the signature goes",
  },
  {
    example: 'a GET with If-None-Match: the current ETag',
    matches: (r) => 'if-none-match' in r.headers,
    status: 304,
    code: null,
    why: 'docs/names.md: "304 while unchanged"',
  },
];

/** What the command prints (curl's output, for the commands it is piped into). */
function stdout(r: CurlRequest, res: Response, body: string): string {
  const lines = [`HTTP/1.1 ${res.status}`];
  res.headers.forEach((v, k) => lines.push(`${k}: ${v}`));
  const head = lines.join('\r\n');
  return (r.printsHeaders ? `${head}\r\n\r\n` : '') + (r.printsBody ? body : '');
}

function checkPipe(cmd: string[], out: string): void {
  const [name, ...args] = cmd;
  if (name === 'jq') {
    expect(() => JSON.parse(out), 'jq gets JSON').not.toThrow();
  } else if (name === 'grep') {
    const flags = args.filter((a) => a.startsWith('-')).join('');
    const pattern = args.find((a) => !a.startsWith('-')) ?? '';
    const re = new RegExp(pattern, flags.includes('i') ? 'i' : '');
    expect(
      out.split(/\r?\n/).some((l) => re.test(l)),
      `grep ${pattern} finds a line in:\n${out}`,
    ).toBe(true);
  } else {
    throw new Error(`piping into ${name} is not modelled by ${import.meta.filename}`);
  }
}

const examples = PAGES.flatMap((p) => curlExamples(TEXT.get(p)!, p, READER_ENV));

describe('the docs examples are found', () => {
  it('one example per line of a shell block that starts with curl, on every page', () => {
    const count = (page: string) => examples.filter((e) => e.where.startsWith(`${page}:`)).length;
    expect(PAGES.map((p) => [p, count(p)])).toEqual(PAGES.map((p) => [p, curlLineCount(TEXT.get(p)!)]));
    expect(examples.length, 'the README has curl examples').toBeGreaterThan(0);
  });

  it('the pages mark as not run exactly the examples NOT_RUN lists, with the same reason', () => {
    const marked = examples.filter((e) => e.notRun !== null).map((e) => ({ where: e.where, why: e.notRun }));
    expect(marked).toEqual(NOT_RUN);
  });
});

describe('every curl example in README.md and docs/*.md runs against the real server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-docs-'));
  let s: ServeProcess;
  const used = new Set<string>();
  beforeAll(async () => {
    s = await startServe({
      DATA_DIR: dataDir,
      DEMO_DAYS: '3',
      ADMIN_TOKEN,
      // the README's persisted-documents example needs the reference client's manifest (mode allow: the rest runs)
      PERSISTED_OPERATIONS: MANIFEST,
      // Every example signs in afresh from one address (127.0.0.1): more than a person's 30 sign-ins a minute.
      API_RATE_LIMITS: 'challenge=1000,sign-in=1000',
    });
    await waitForStatus(`${s.url}/healthz`, 200, 60_000);
  });
  afterAll(async () => {
    await s?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const runnable = examples
    .filter((e) => e.notRun === null)
    .map((e) => [`${e.where}  ${e.source}`, e] as const);
  it.each(runnable)('%s', async (_title, e) => {
    expect(e.undefinedVars, 'variables the page uses but never sets').toEqual([]);
    const w = new DocWorld(s.url, ADMIN_TOKEN, MANIFEST);
    const r = await realRequest(e, s.url, w);
    const left = [r.url, ...Object.values(r.headers), (r.body ?? '').replace(SIGNATURE_PLACEHOLDER, '')].join(
      '\n',
    );
    expect(UNKNOWN_PLACEHOLDER.exec(left)?.[0], 'a placeholder PLACEHOLDERS does not know').toBeUndefined();

    const res = await fetch(r.url, {
      method: r.method,
      headers: r.headers,
      body: r.body,
      redirect: 'manual',
    });
    const text = await res.text();
    const expected = BY_DESIGN.find((d) => d.matches(r));
    const seen = `${route(r)} → ${res.status} ${text.slice(0, 500)}${expected ? ` (by design: ${expected.why})` : ''}`;
    if (expected) {
      used.add(expected.example);
      expect(res.status, seen).toBe(expected.status);
      if (expected.code)
        expect((JSON.parse(text) as { error?: { code?: string } }).error?.code, seen).toBe(expected.code);
    } else {
      expect(res.status, seen).toBeGreaterThanOrEqual(200);
      expect(res.status, seen).toBeLessThan(300);
    }
    for (const cmd of e.pipes) checkPipe(cmd, stdout(r, res, text));
  });

  it('every BY_DESIGN outcome is met by some example, and its code is documented', () => {
    const docs = [...TEXT.values()].join('\n');
    for (const d of BY_DESIGN) {
      expect(used, d.example).toContain(d.example);
      if (d.code) expect(docs, d.code).toContain(`\`${d.code}\``);
    }
  });
});
