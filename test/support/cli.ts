/**
 * The command line run in the test's own process: `main(argv)` (src/cli/main.ts) with what it writes to stdout and
 * stderr captured instead of printed, for the tests of the commands that need no process of their own.
 */
import { vi } from 'vitest';
import { main } from '../../src/cli/main.ts';

/** Runs `coinwallet <argv>` in this process: its exit code and what it wrote to stdout and stderr. */
export async function runCli(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    out += String(c);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => {
    err += String(c);
    return true;
  });
  try {
    return { code: await main([...argv]), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
