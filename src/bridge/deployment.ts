/**
 * A bridge deployment: one configuration file per network (`config/bridge/testnet.json`, `mainnet.json`), read and
 * validated at start. It is the single source of what the bridge read API publishes: chains, assets, lanes with
 * their limits and fees, deposit and reserve addresses, and the key that attests reserves. See docs/bridge.md.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectPath } from '../core/project-root.ts';
import type { Chain, Deployment, Network } from './model.ts';
import { DeploymentError, NETWORKS } from './model.ts';
import { parseDeployment } from './validate.ts';

/** `config/bridge` of this project, whatever the working directory. */
export const DEFAULT_DEPLOYMENT_DIR = projectPath('config', 'bridge');

/** Reads and validates `<dir>/<network>.json`; its `network` must be `network`. */
export function loadDeployment(network: Network, dir = DEFAULT_DEPLOYMENT_DIR): Deployment {
  if (!NETWORKS.includes(network)) {
    throw new DeploymentError(`bridge network must be testnet or mainnet, not "${String(network)}"`);
  }
  const d = loadDeploymentFile(join(dir, `${network}.json`));
  if (d.network !== network) {
    throw new DeploymentError(
      `${d.source}: network must be "${network}" (the file's name), not "${d.network}"`,
    );
  }
  return d;
}

/** Reads and validates one deployment file; throws `DeploymentError` naming the file and the field. */
export function loadDeploymentFile(path: string): Deployment {
  const shown = displayPath(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new DeploymentError(`${shown}: cannot read the deployment file (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new DeploymentError(`${shown}: not valid JSON (${(err as Error).message})`);
  }
  return parseDeployment(json, shown);
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

export function chainById(d: Deployment, id: string): Chain {
  const c = d.chains.find((x) => x.id === id);
  if (!c) throw new DeploymentError(`${d.source}: no chain "${id}"`);
  return c;
}
