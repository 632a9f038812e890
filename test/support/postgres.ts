import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway PostgreSQL cluster on a free loopback port, started from Debian's `postgresql` binaries. */
export interface TempPostgres {
  url: string;
  stop(): void;
  /** Shuts the server down (`pg_ctl stop -m fast`: sessions are ended), keeping its data: an outage. */
  halt(): void;
  /** Starts it again after {@link halt}, on the same port and data. */
  restart(): void;
}

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  throw new Error(
    "PostgreSQL server binaries not found: install Debian's postgresql (apt-get install postgresql) or set TEST_DATABASE_URL",
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Starts a cluster (as the `postgres` user when running as root: initdb refuses root). */
export async function startTempPostgres(): Promise<TempPostgres> {
  const bin = pgBin();
  const dir = mkdtempSync(join(tmpdir(), 'cw-pg-'));
  const asRoot = process.getuid?.() === 0;
  const uid = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : undefined;
  const gid = asRoot ? Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) : undefined;
  if (asRoot) {
    chmodSync(dir, 0o700);
    chownSync(dir, uid as number, gid as number);
  }
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(join(bin, cmd), args, { encoding: 'utf8', ...(asRoot ? { uid, gid } : {}) });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  const port = await freePort();
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = (): void =>
    run('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`,
      'start',
    ]);
  start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'coinwallet']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/coinwallet`,
    halt: () => run('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']),
    restart: start,
    stop() {
      spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], asRoot ? { uid, gid } : {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
