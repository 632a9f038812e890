/**
 * Command-line arguments through Node's `util.parseArgs` (strict): unknown options are errors, so typos never pass
 * silently. Every command declares its options in a {@link CommandSpec}; `--help` / `-h` is added to each.
 */
import { parseArgs as nodeParseArgs } from 'node:util';
import type { CommandSpec, OptionSpec } from './spec.ts';
import { usageText } from './usage.ts';

/** A wrong invocation: exit 2, the message, then the usage of the command it concerns (`usage`, when known). */
export class UsageError extends Error {
  usage: string | undefined;
  constructor(message: string, usage?: string) {
    super(message);
    this.usage = usage;
  }
}

export interface Args {
  /** `--help` or `-h` was given: print {@link Args.usage}, run nothing. */
  help: boolean;
  flags: Record<string, string | boolean>;
  /** The values of each option declared `multiple`, in the order given (absent when not given). */
  lists: Record<string, string[]>;
  /** The positionals; for a command with subcommands the first is the subcommand's name. */
  positional: string[];
  /** The usage of the command, or of its subcommand when one is named. */
  usage: string;
}

export const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', help: 'print this help and exit' };

type NodeOptions = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

const toNode = (options: Readonly<Record<string, OptionSpec>>): NodeOptions =>
  Object.fromEntries(
    Object.entries(options).map(([k, o]) => [
      k,
      { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
    ]),
  );

/**
 * Parses `argv` for `spec`. A subcommand (the first positional naming one) accepts only its own options and the
 * command's; without a known subcommand every subcommand's options parse, and the command says what is missing.
 * Throws {@link UsageError} naming the option.
 */
export function parseCommand(spec: CommandSpec, argv: readonly string[]): Args {
  const all: Record<string, OptionSpec> = { help: HELP_OPTION, ...spec.options };
  for (const s of spec.subcommands ?? []) Object.assign(all, s.options);
  const config = { args: [...argv], options: toNode(all), allowPositionals: true, tokens: true } as const;
  const subNamed = (positionals: readonly string[]): CommandSpec | undefined =>
    spec.subcommands?.find((s) => s.name === `${spec.name} ${positionals[0]}`);
  const usageOf = (sub: CommandSpec | undefined): string => usageText(sub ?? spec, sub ? spec : undefined);
  let parsed: ReturnType<typeof nodeParseArgs<typeof config & { strict: true }>>;
  try {
    parsed = nodeParseArgs({ ...config, strict: true });
  } catch (err) {
    const lenient = nodeParseArgs({ ...config, strict: false });
    throw new UsageError(explain(err, lenient.tokens, all), usageOf(subNamed(lenient.positionals)));
  }
  const sub = subNamed(parsed.positionals);
  const usage = usageOf(sub);
  const flags = Object.fromEntries(
    Object.entries(parsed.values).filter(
      (e): e is [string, string | boolean] => e[1] !== undefined && !Array.isArray(e[1]),
    ),
  );
  const lists = Object.fromEntries(
    Object.entries(parsed.values).filter((e): e is [string, string[]] => Array.isArray(e[1])),
  );
  const help = flags['help'] === true;
  delete flags['help'];
  if (sub && !help) {
    for (const t of parsed.tokens) {
      if (t.kind === 'option' && t.name !== 'help' && !(t.name in sub.options) && !(t.name in spec.options))
        throw new UsageError(`unknown option ${t.rawName} for ${sub.name}`, usage);
    }
  }
  return { help, flags, lists, positional: parsed.positionals, usage };
}

/** Says what is wrong in our words (the option as written, what it needs), from a lenient parse's tokens. */
function explain(
  err: unknown,
  tokens: ReturnType<typeof nodeParseArgs<{ strict: false; tokens: true }>>['tokens'],
  options: Record<string, OptionSpec>,
): string {
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const o = options[t.name];
    if (!o) return `unknown option ${t.rawName}`;
    if (o.type === 'boolean' && t.value !== undefined) return `${t.rawName} takes no value`;
    if (o.type === 'string' && t.value === undefined) return `${t.rawName} needs a value`;
    if (o.type === 'string' && !t.inlineValue && t.value?.startsWith('-'))
      return `${t.rawName} needs a value (for a value starting with "-", write ${t.rawName}=${t.value})`;
  }
  return err instanceof Error ? err.message : String(err);
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
