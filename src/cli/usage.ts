/** The help texts, made from the commands' specs so that they list exactly what the parser accepts. */
import type { CommandSpec, OptionSpec } from './spec.ts';

const HELP_LINE = '  -h, --help';
/** Where a synopsis line continues in a list (deeper than the summary below it). */
const CONTINUED = ' '.repeat(10);

function optionLines(options: Readonly<Record<string, OptionSpec>>): string[] {
  const rows = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
    return [`  ${flag}`, o.help] as const;
  });
  rows.push([HELP_LINE, 'print this help and exit']);
  const width = Math.max(...rows.map(([f]) => f.length)) + 2;
  return rows.map(([f, h]) => f.padEnd(width) + h);
}

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((l) => by + l)
    .join('\n');

/** `coinwallet <name> <synopsis>`; a synopsis of several lines continues indented by `continuation`. */
const synopsis = (s: CommandSpec, continuation: string): string =>
  `coinwallet ${s.name}${s.synopsis ? ` ${s.synopsis.split('\n').join(`\n${continuation}`)}` : ''}`;

/**
 * The usage of a command: its synopsis, what it does, its options. A command with subcommands lists theirs (each
 * has its own `--help`); a subcommand's usage (with `parent`) also lists the options it shares with its command.
 */
export function usageText(spec: CommandSpec, parent?: CommandSpec): string {
  const subs = spec.subcommands ?? [];
  const options = optionLines({ ...spec.options, ...parent?.options });
  if (subs.length === 0)
    return [
      `Usage: ${synopsis(spec, ' '.repeat(`Usage: coinwallet ${spec.name} `.length))}`,
      '',
      spec.summary,
      '',
      'Options:',
      ...options,
    ].join('\n');
  return [
    `coinwallet ${spec.name}: ${spec.summary}`,
    '',
    'Usage:',
    ...subs.flatMap((s) => [`  ${synopsis(s, CONTINUED)}`, indent(s.summary, '      ')]),
    '',
    'Options of every subcommand:',
    ...options,
    '',
    `Each subcommand has its own help: coinwallet ${spec.name} <subcommand> --help`,
  ].join('\n');
}

/** `coinwallet help`: every command's synopsis and summary. */
export function overviewText(commands: readonly CommandSpec[]): string {
  const entries = commands.flatMap((c) => (c.subcommands?.length ? c.subcommands : [c]));
  return [
    'coinwallet — the Coin Wallet developer platform',
    '',
    'Usage:',
    ...entries.flatMap((s) => [`  ${synopsis(s, CONTINUED)}`, indent(s.summary, '      ')]),
    '  coinwallet help [COMMAND]',
    '      this text, or the usage of COMMAND (as coinwallet COMMAND --help)',
    '  coinwallet --version',
    '      the version of this package',
    '',
    'Every command and subcommand takes -h / --help. Environment: see README.md (Configuration).',
  ].join('\n');
}
