/** Minimal `--flag value` / `--switch` parser: unknown flags are errors, so typos never pass silently. */
export class UsageError extends Error {}

export function parseArgs(
  argv: readonly string[],
  spec: Record<string, 'string' | 'boolean'>,
): { flags: Record<string, string | boolean>; positional: string[] } {
  const flags: Record<string, string | boolean> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (kind === 'boolean') flags[name] = true;
    else {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      flags[name] = v;
    }
  }
  return { flags, positional };
}

export function intFlag(
  v: string | boolean | undefined,
  name: string,
  def: number,
  min: number,
  max: number,
): number {
  if (v === undefined) return def;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return n;
}
