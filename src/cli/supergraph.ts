import { readFileSync } from 'node:fs';
import type { AppConfig } from '../config.ts';
import { isSubgraphUrl, SUPERGRAPH_URL, supergraphWithUrls } from '../../router/supergraph.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/shared/subgraph.ts';
import type { SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { SUPERGRAPH } from './specs.ts';

/** `coinwallet supergraph [--url name=URL …]`: the supergraph with real subgraph URLs, on stdout. */
export const supergraph: Command = { spec: SUPERGRAPH, run: (args, config) => runSupergraph(args, config) };

async function runSupergraph({ lists, positional }: Args, config: () => Promise<AppConfig>): Promise<number> {
  if (positional.length > 0) throw new UsageError(`supergraph takes no arguments (got ${positional[0]})`);
  const given: Partial<Record<SubgraphName, string>> = {};
  for (const pair of lists['url'] ?? []) {
    const i = pair.indexOf('=');
    const name = pair.slice(0, Math.max(i, 0));
    if (i <= 0 || !(SUBGRAPH_NAMES as readonly string[]).includes(name))
      throw new UsageError(
        `--url must be NAME=URL with NAME one of ${SUBGRAPH_NAMES.join(', ')} (got ${pair})`,
      );
    if (given[name as SubgraphName] !== undefined) throw new UsageError(`--url ${name}= is given twice`);
    const url = pair.slice(i + 1);
    if (!isSubgraphUrl(url)) throw new UsageError(`--url ${pair}: the URL must be http(s)`);
    given[name as SubgraphName] = url;
  }
  // The environment is read only for what the options leave out (a complete --url set needs no configuration).
  const fromEnv = SUBGRAPH_NAMES.every((n) => given[n] !== undefined) ? {} : (await config()).subgraphUrls;
  const urls = { ...fromEnv, ...given };
  const missing = SUBGRAPH_NAMES.filter((n) => urls[n] === undefined);
  if (missing.length > 0)
    throw new UsageError(
      `no URL for ${missing.join(', ')}: give --url ${missing[0]}=URL for each, or set SUBGRAPH_URLS`,
    );
  const out = supergraphWithUrls(readFileSync(SUPERGRAPH_URL, 'utf8'), urls as Record<SubgraphName, string>);
  process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  return 0;
}
