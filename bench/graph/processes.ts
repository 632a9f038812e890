/**
 * The benchmark's processes: the orchestrator forks this script again with `--role` and talks to each child over IPC
 * (readiness, CPU time so far, CPU profiles on request).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import type { Ready } from './config.ts';

export interface Child {
  name: string;
  ready: Ready;
  /** The child's CPU time so far (user + system), ms. */
  cpuMs(): Promise<number>;
  /** Starts the CPU profiler in the child; `profileStop` writes what it sampled to `file`. */
  profileStart(): Promise<void>;
  profileStop(file: string): Promise<void>;
  stop(): Promise<void>;
}

/** Forks `script` (run through bin/run-ts.js) with `args` and waits until it reports ready. */
export async function startChild(
  script: string,
  name: string,
  args: string[],
  timeoutMs = 600_000,
  /** Where the child's stderr goes (its log, written by the child alone); default this process's. */
  stderrFile?: string,
): Promise<Child> {
  const logFd = stderrFile === undefined ? null : openSync(stderrFile, 'w');
  const proc: ChildProcess = fork(
    join(import.meta.dirname, '..', '..', 'bin', 'run-ts.js'),
    [script, ...args],
    { execArgv: [], stdio: ['ignore', 'inherit', logFd ?? 'inherit', 'ipc'] },
  );
  if (logFd !== null) closeSync(logFd);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const reply = (timeout: number) =>
    new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no answer after ${timeout} ms`)), timeout);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${code}`));
      };
      proc.once('exit', onExit);
      proc.once('message', (m) => {
        clearTimeout(timer);
        proc.off('exit', onExit);
        resolve(m);
      });
    });
  const ready = (await reply(timeoutMs)) as Ready;
  return {
    name,
    ready,
    async cpuMs() {
      proc.send({ cmd: 'cpu' });
      return ((await reply(10_000)) as { cpuMs: number }).cpuMs;
    },
    async profileStart() {
      proc.send({ cmd: 'profile-start' });
      await reply(10_000);
    },
    async profileStop(file) {
      proc.send({ cmd: 'profile-stop', file });
      await reply(60_000);
    },
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** A child: reports readiness over IPC, profiles on request, exits on SIGTERM or when the parent goes away. */
export async function runChild(serve: () => Promise<Ready>): Promise<void> {
  const exit = () => process.exit(0);
  process.on('SIGTERM', exit);
  process.on('disconnect', exit);
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  process.on('message', (m: { cmd: string; file?: string }) => {
    void (async () => {
      if (m.cmd === 'profile-start') {
        await post('Profiler.enable');
        await post('Profiler.start');
      } else if (m.cmd === 'cpu') {
        const u = process.cpuUsage();
        process.send?.({ cpuMs: (u.user + u.system) / 1000 });
        return;
      } else if (m.cmd === 'profile-stop') {
        const { profile } = (await post('Profiler.stop')) as { profile: object };
        writeFileSync(m.file as string, JSON.stringify(profile));
      }
      process.send?.({ done: m.cmd });
    })();
  });
  process.send?.(await serve());
}
