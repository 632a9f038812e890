/**
 * The `coinwallet` command line (src/cli/main.ts): every command's and subcommand's help, the version, unknown
 * options, and start-up errors that must name the variable at fault. In-process through `main(argv)`, and through
 * `node bin/coinwallet.js` for what only a process shows (its exit code, that it ends by itself).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseCommand, UsageError } from '../../src/cli/args.ts';
import { COMMANDS } from '../../src/cli/main.ts';
import { operatorTokenLine } from '../../src/cli/serve.ts';
import { runCli } from '../support/cli.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'coinwallet.js');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const dir = mkdtempSync(join(tmpdir(), 'cw-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** DATA_DIR of every run: it must still not exist after any `--help` (nothing opened, generated or written). */
const DATA_DIR = join(dir, 'data');

/** Runs `node bin/coinwallet.js …` with `env`; it must end by itself within `timeoutMs`. */
async function spawnCli(
  argv: string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...argv], {
      cwd: ROOT,
      // Not this test's stubbed ADMIN_TOKEN: only what `env` says.
      env: { ...process.env, DATA_DIR, PORT: '0', LOG_LEVEL: 'warn', ADMIN_TOKEN: '', ...env },
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const x = e as { code?: number | string; killed?: boolean; stdout: string; stderr: string };
    if (x.killed) throw new Error(`coinwallet ${argv.join(' ')} did not exit within ${timeoutMs} ms`);
    return { code: typeof x.code === 'number' ? x.code : -1, out: x.stdout, err: x.stderr };
  }
}

beforeEach(() => {
  vi.stubEnv('DATA_DIR', DATA_DIR);
  // Would stop any command that read the configuration: help reads none.
  vi.stubEnv('ADMIN_TOKEN', 'short');
  // Would be called by keys/dapps/admin: help calls nothing.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new Error('no request expected'))),
  );
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

const commands = COMMANDS.map((c) => c.spec);
const invocations: string[][] = commands.flatMap((c) => [
  [c.name],
  ...(c.subcommands ?? []).map((s) => s.name.split(' ')),
]);

describe('--help and -h', () => {
  it('covers every command of src/cli', () => {
    expect(commands.map((c) => c.name).sort()).toEqual(
      [
        'admin',
        'apps',
        'bridge',
        'dapp-browser',
        'dapps',
        'demo-data',
        'ingest',
        'keys',
        'mcp',
        'schema',
        'serve',
        'sources',
        'supergraph',
      ].sort(),
    );
  });

  it.each(
    invocations.flatMap((argv) => [
      [...argv, '--help'],
      [...argv, '-h'],
    ]),
  )('%j prints its usage to stdout, exits 0 and runs nothing', async (...argv) => {
    const { code, out, err } = await runCli(argv);
    expect(code).toBe(0);
    expect(err).toBe('');
    const name = argv.slice(0, -1).join(' ');
    // `Usage: coinwallet keys create …`, or for a command with subcommands `coinwallet keys: …`
    expect(out.split('\n')[0]).toMatch(new RegExp(`^(Usage: )?coinwallet ${name}[ :]`));
    expect(out).toMatch(/-h, --help +print this help and exit/);
    expect(existsSync(DATA_DIR)).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("a subcommand's help is its own: its options, and the command's", async () => {
    const { out } = await runCli(['keys', 'create', '--help']);
    expect(out.split('\n')[0]).toBe(
      'Usage: coinwallet keys create --plan free|pro|enterprise [--limit N] [--approve] [--description TEXT]',
    );
    expect(out).toMatch(/--plan PLAN +free, pro or enterprise/);
    expect(out).toMatch(/--url URL +the running server/);
    expect(out).not.toContain('--reason');
    const keys = await runCli(['keys', '--help']);
    for (const sub of ['create', 'list', 'approve', 'reject', 'revoke'])
      expect(keys.out).toContain(`coinwallet keys ${sub}`);
  });

  it('help wherever it stands among the options, and with options a run would refuse', async () => {
    expect((await runCli(['serve', '--only', 'router', '-h'])).code).toBe(0);
    expect((await runCli(['keys', 'create', '-h'])).out).toContain('Usage: coinwallet keys create'); // no --plan
    expect((await runCli(['dapps', '--url', 'http://x', 'reject', '--help'])).out).toContain(
      'Usage: coinwallet dapps reject',
    );
  });

  it('`coinwallet help`, `--help`, `-h`: the overview; `help COMMAND`: that usage', async () => {
    for (const argv of [['help'], ['--help'], ['-h']]) {
      const { code, out } = await runCli(argv);
      expect(code).toBe(0);
      for (const c of commands) expect(out).toContain(`coinwallet ${c.name}`);
      expect(out).toContain('coinwallet --version');
    }
    const sub = await runCli(['help', 'bridge', 'snapshot']);
    expect(sub.code).toBe(0);
    expect(sub.out).toContain('Usage: coinwallet bridge snapshot');
    const unknown = await runCli(['help', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command "nope"');
  });

  it('without a command: the overview and exit 2 (as before)', async () => {
    const { code, out } = await runCli([]);
    expect(code).toBe(2);
    expect(out).toContain('coinwallet serve');
  });
});

describe('--version', () => {
  it.each([['--version'], ['-v']])('%s prints the version of package.json', async (flag) => {
    const { code, out } = await runCli([flag]);
    expect(code).toBe(0);
    expect(out).toBe(`coinwallet ${VERSION}\n`);
  });
});

describe('usage errors: exit 2, the message naming the option, then the usage of the command', () => {
  it.each<[string[], string, string]>([
    [['serve', '--port', '4000'], 'unknown option --port', 'Usage: coinwallet serve'],
    [['serve', '-x'], 'unknown option -x', 'Usage: coinwallet serve'],
    [['serve', 'now'], 'serve takes no arguments (got now)', 'Usage: coinwallet serve'],
    [['ingest', '--replay'], '--replay needs a value', 'Usage: coinwallet ingest'],
    [['demo-data', '--load=yes'], '--load takes no value', 'Usage: coinwallet demo-data'],
    [['demo-data', '--seed', 'x'], '--seed must be an integer from 0 to 2147483647', 'coinwallet demo-data'],
    [
      ['keys', 'list', '--plan', 'free'],
      'unknown option --plan for keys list',
      'Usage: coinwallet keys list',
    ],
    [
      ['keys', 'create', '--description', '-x'],
      '--description needs a value',
      'Usage: coinwallet keys create',
    ],
    [['keys', 'create'], 'keys create needs --plan free|pro|enterprise', 'Usage: coinwallet keys create'],
    [['keys', 'revoke', 'a', 'b'], 'unexpected argument b for keys revoke', 'Usage: coinwallet keys revoke'],
    [['keys', 'rotate'], 'keys needs: create', 'coinwallet keys create'],
    [['dapps', 'reject', 'x', '--reason', 'r'], 'unknown option --reason', 'Usage: coinwallet dapps reject'],
    [['admin', 'grant'], 'admin needs: grant <LTC address>', 'Usage: coinwallet admin grant'],
    [['bridge', 'snapshot', '--net', 'x'], 'unknown option --net', 'Usage: coinwallet bridge snapshot'],
    [['sources', 'check', '--fil', 'x'], 'unknown option --fil', 'Usage: coinwallet sources check'],
    [['dapp-browser', '--port', '1'], 'dapp-browser needs one <dapp-url>', 'Usage: coinwallet dapp-browser'],
    [
      ['supergraph', '--url', 'prices=http://x/graphql'],
      '--url must be NAME=URL with NAME one of',
      'coinwallet supergraph',
    ],
    [
      ['supergraph', '--url', 'markets=ftp://x/graphql'],
      '--url markets=ftp://x/graphql: the URL must be http(s)',
      'coinwallet supergraph',
    ],
    [
      ['supergraph', '--url', 'markets=http://a/g', '--url', 'markets=http://b/g'],
      '--url markets= is given twice',
      'coinwallet supergraph',
    ],
    [['supergraph', '--url'], '--url needs a value', 'Usage: coinwallet supergraph'],
    [['nope'], 'unknown command "nope"', 'coinwallet — the Coin Wallet developer platform'],
    [['--bogus'], 'unknown option --bogus', 'coinwallet — the Coin Wallet developer platform'],
  ])('%j', async (argv, message, usage) => {
    vi.stubEnv('ADMIN_TOKEN', ''); // commands that get past parsing read the configuration
    const { code, out, err } = await runCli(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    const [first, ...rest] = err.split('\n');
    expect(first).toContain(`coinwallet: ${message}`);
    expect(rest.join('\n')).toContain(usage);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('parseCommand keeps what the commands read: flags, positionals in order, repeated values', () => {
    const a = parseCommand(COMMANDS.find((c) => c.spec.name === 'ingest')!.spec, [
      'a.jsonl',
      '--replay=b.jsonl',
      'c.jsonl',
    ]);
    expect(a).toMatchObject({
      help: false,
      flags: { replay: 'b.jsonl' },
      positional: ['a.jsonl', 'c.jsonl'],
    });
    const k = parseCommand(COMMANDS.find((c) => c.spec.name === 'keys')!.spec, [
      '--approve',
      'create',
      '--plan',
      'pro',
      '--',
      '--help',
    ]);
    expect(k).toMatchObject({ help: false, flags: { approve: true, plan: 'pro' } });
    expect(k.positional).toEqual(['create', '--help']);
    expect(() => parseCommand(COMMANDS[0]!.spec, ['--only'])).toThrow(UsageError);
  });
});

describe('start-up errors name the variable', () => {
  it('ADMIN_TOKEN shorter than 16 characters: the rule, why, and how to make one', async () => {
    vi.stubEnv('ADMIN_TOKEN', 'short');
    const { code, err } = await runCli(['serve']);
    expect(code).toBe(2);
    expect(err).toContain('ADMIN_TOKEN must be at least 16 characters');
    expect(err).toContain('openssl rand -hex 32');
    expect(existsSync(DATA_DIR)).toBe(false);
  });

  it('API_KEY_PEPPER likewise', async () => {
    vi.stubEnv('ADMIN_TOKEN', '');
    vi.stubEnv('API_KEY_PEPPER', '0123456789abcde'); // 15
    const { code, err } = await runCli(['serve']);
    expect(code).toBe(2);
    expect(err).toMatch(/API_KEY_PEPPER must be at least 16 characters.*openssl rand -hex 32/);
  });

  it.each<[string, string | null, RegExp]>([
    [
      'missing.json',
      null,
      /^coinwallet: PERSISTED_OPERATIONS: cannot read \S+missing\.json \(no such file\)$/m,
    ],
    ['text.json', 'query { a }', /^coinwallet: PERSISTED_OPERATIONS: \S+text\.json: not JSON$/m],
    [
      'list.json',
      '[1, 2]',
      /^coinwallet: PERSISTED_OPERATIONS: \S+list\.json: expected an Apollo persisted/m,
    ],
    [
      'ops.json',
      '{"format":"apollo-persisted-query-manifest","version":1,"operations":[{"id":"a"}]}',
      /^coinwallet: PERSISTED_OPERATIONS: \S+ops\.json: operations\[0\] needs string "id" and "body"$/m,
    ],
  ])('PERSISTED_OPERATIONS %s: exit 2 before opening anything', async (file, content, message) => {
    const path = join(dir, file);
    if (content !== null) writeFileSync(path, content);
    vi.stubEnv('ADMIN_TOKEN', '');
    vi.stubEnv('PERSISTED_OPERATIONS', path);
    const { code, err } = await runCli(['serve']);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).not.toContain('ENOENT');
    expect(existsSync(DATA_DIR)).toBe(false);
  });
});

describe('as a process (node bin/coinwallet.js)', () => {
  it('serve --help and serve -h print the usage and exit 0 without listening', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await spawnCli(['serve', flag]);
      expect(r.code).toBe(0);
      expect(r.out).toContain('Usage: coinwallet serve');
      expect(r.err).not.toContain('listening');
    }
    expect(existsSync(DATA_DIR)).toBe(false);
  }, 90_000);

  it('--version', async () => {
    const r = await spawnCli(['--version']);
    expect(r).toMatchObject({ code: 0, out: `coinwallet ${VERSION}\n` });
  });

  it('PERSISTED_OPERATIONS=/nonexistent: serve exits 2 naming the variable and the path', async () => {
    const r = await spawnCli(['serve'], { PERSISTED_OPERATIONS: '/nonexistent/ops.json' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('PERSISTED_OPERATIONS: cannot read /nonexistent/ops.json (no such file)');
    expect(r.err).not.toContain('listening');
  });

  it('ADMIN_TOKEN=short: serve exits 2 naming the rule', async () => {
    const r = await spawnCli(['serve'], { ADMIN_TOKEN: 'short' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('ADMIN_TOKEN must be at least 16 characters');
    expect(r.err).toContain('openssl rand -hex 32');
  });

  it('an unknown option: exit 2 naming it', async () => {
    const r = await spawnCli(['keys', 'list', '--stauts', 'pending']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('coinwallet: unknown option --stauts');
    expect(r.err).toContain('Usage: coinwallet keys list');
  });
});

describe('the operator token line of serve', () => {
  it('names the generated file, says when the endpoints are off, says nothing when ADMIN_TOKEN is set', () => {
    expect(operatorTokenLine({ adminToken: undefined }, '/d/secrets/admin-token')).toBe(
      'coinwallet: ADMIN_TOKEN is unset: the operator token is in /d/secrets/admin-token\n',
    );
    expect(operatorTokenLine({ adminToken: undefined }, null)).toMatch(/operator endpoints are off/);
    expect(operatorTokenLine({ adminToken: 'x'.repeat(16) }, null)).toBe('');
  });
});
