import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { admin } from './admin.ts';
import { bridge } from './bridge.ts';
import { dappBrowser } from './dapp-browser.ts';
import { dapps } from './dapps.ts';
import { demoData } from './demo-data.ts';
import { ingest } from './ingest.ts';
import { keys } from './keys.ts';
import { serve } from './serve.ts';
import { sources } from './sources.ts';
import { supergraph } from './supergraph.ts';
import { overviewText, usageText } from './usage.ts';

/** Every command, in the order `coinwallet help` lists them. */
export const COMMANDS: readonly Command[] = [
  serve,
  ingest,
  sources,
  demoData,
  keys,
  dapps,
  admin,
  bridge,
  supergraph,
  dappBrowser,
];

export const USAGE = overviewText(COMMANDS.map((c) => c.spec));

/** The `version` of package.json. */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const find = (name: string | undefined): Command | undefined => COMMANDS.find((c) => c.spec.name === name);

/**
 * Runs the CLI; resolves to the process exit code: 0 done, 1 failed, 2 a usage or configuration error. `--help` /
 * `-h` (anywhere before `--`) prints a command's usage to stdout and runs nothing; `--version` / `-v` the version.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  let usage = USAGE;
  try {
    const command = find(cmd);
    if (command) {
      usage = usageText(command.spec);
      // The environment is read only when the command runs, so `--help` works whatever it holds.
      return await runCommand(command, rest, () => loadConfig());
    }
    switch (cmd) {
      case '--version':
      case '-v':
        if (rest.length > 0) throw new UsageError(`${cmd} takes no arguments`);
        process.stdout.write(`coinwallet ${VERSION}\n`);
        return 0;
      case undefined:
        process.stdout.write(USAGE + '\n');
        return 2;
      case 'help':
      case '--help':
      case '-h': {
        const [topic, ...more] = rest;
        if (topic === undefined) {
          process.stdout.write(USAGE + '\n');
          return 0;
        }
        const about = find(topic);
        if (!about) throw new UsageError(`unknown command "${topic}"`);
        return await runCommand(about, [...more, '--help'], () => loadConfig());
      }
      default:
        throw new UsageError(cmd.startsWith('-') ? `unknown option ${cmd}` : `unknown command "${cmd}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`coinwallet: ${err.message}\n\n${err.usage ?? usage}\n`);
      return 2;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`coinwallet: ${err.message}\n(see README.md, Configuration)\n`);
      return 2;
    }
    process.stderr.write(`coinwallet: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
