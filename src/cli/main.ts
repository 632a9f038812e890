import { readFileSync } from 'node:fs';
import type { AppConfig } from '../config.ts';
import { ConfigError } from '../config-error.ts';
import { projectPath } from '../core/project-root.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import {
  ADMIN,
  APPS,
  BRIDGE,
  DAPP_BROWSER,
  DAPPS,
  DEMO_DATA,
  INGEST,
  KEYS,
  MCP,
  SCHEMA,
  SERVE,
  SOURCES,
  SUPERGRAPH,
} from './specs.ts';
import type { CommandSpec } from './spec.ts';
import { overviewText, usageText } from './usage.ts';

export { mapStackTraces } from '../core/stack-traces.ts';

/**
 * A command known by its spec, whose code is loaded when it runs: `--help` and `--version` load none of the product
 * (the build splits each of these imports into its own files).
 */
const lazy = (spec: CommandSpec, load: () => Promise<Command>): Command => ({
  spec,
  run: async (args, config) => (await load()).run(args, config),
});

/** Every command, in the order `coinwallet help` lists them. */
export const COMMANDS: readonly Command[] = [
  lazy(SERVE, async () => (await import('./serve.ts')).serve),
  lazy(INGEST, async () => (await import('./ingest.ts')).ingest),
  lazy(SOURCES, async () => (await import('./sources.ts')).sources),
  lazy(DEMO_DATA, async () => (await import('./demo-data.ts')).demoData),
  lazy(KEYS, async () => (await import('./keys.ts')).keys),
  lazy(DAPPS, async () => (await import('./dapps.ts')).dapps),
  lazy(APPS, async () => (await import('./apps.ts')).apps),
  lazy(SCHEMA, async () => (await import('./schema.ts')).schema),
  lazy(ADMIN, async () => (await import('./admin.ts')).admin),
  lazy(BRIDGE, async () => (await import('./bridge.ts')).bridge),
  lazy(SUPERGRAPH, async () => (await import('./supergraph.ts')).supergraph),
  lazy(DAPP_BROWSER, async () => (await import('./dapp-browser.ts')).dappBrowser),
  lazy(MCP, async () => (await import('./mcp.ts')).mcp),
];

export const USAGE = overviewText(COMMANDS.map((c) => c.spec));

/** The `version` of package.json. */
export const VERSION = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string })
  .version;

const find = (name: string | undefined): Command | undefined => COMMANDS.find((c) => c.spec.name === name);

/** The configuration, read from the environment when a command runs (never for `--help`). */
const loadConfig = async (): Promise<AppConfig> => (await import('../config.ts')).loadConfig();

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
      return await runCommand(command, rest, loadConfig);
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
        return await runCommand(about, [...more, '--help'], loadConfig);
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
