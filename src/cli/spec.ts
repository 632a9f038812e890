/** What a command declares: its name, synopsis, summary and options (`args.ts` parses by it, `usage.ts` prints it). */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** A one-letter alias (`-h`). */
  short?: string;
  /** How the help names a string option's value, e.g. `FILE`; default `VALUE`. */
  value?: string;
  /** One line for the help. */
  help: string;
  /** A string option that may be given more than once: its values are in `Args.lists`, in order. */
  multiple?: boolean;
}

export interface CommandSpec {
  /** `serve`, or `keys create` for a subcommand. */
  name: string;
  /** The synopsis after `coinwallet <name>`, e.g. `--plan free|pro|enterprise [--limit N]`. */
  synopsis: string;
  /** What it does, for the help (one or a few lines). */
  summary: string;
  options: Readonly<Record<string, OptionSpec>>;
  /** Subcommands, named `<command> <sub>`: each accepts its own options plus the command's. */
  subcommands?: readonly CommandSpec[];
}
