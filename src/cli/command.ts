import type { AppConfig } from '../config.ts';
import type { Args } from './args.ts';
import type { CommandSpec } from './spec.ts';
import { parseCommand, UsageError } from './args.ts';

/** A `coinwallet` command: what it accepts, and what it does with parsed arguments. */
export interface Command {
  spec: CommandSpec;
  /** `config` reads the environment when called: a command that needs none (dapp-browser) never calls it. */
  run(args: Args, config: () => Promise<AppConfig>): Promise<number>;
}

/**
 * Parses `argv` for `cmd` and runs it; with `--help` / `-h`, prints the usage to stdout and returns 0 without reading
 * the configuration or starting anything. A usage error from the command carries the command's usage.
 */
export async function runCommand(
  cmd: Command,
  argv: readonly string[],
  config: () => Promise<AppConfig>,
): Promise<number> {
  const args = parseCommand(cmd.spec, argv);
  if (args.help) {
    process.stdout.write(args.usage + '\n');
    return 0;
  }
  try {
    return await cmd.run(args, config);
  } catch (err) {
    if (err instanceof UsageError && err.usage === undefined) err.usage = args.usage;
    throw err;
  }
}
