/** The bridge section: the active deployment, where deployments are described, and its reserve reports' signing. */
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../core/project-root.ts';
import { int, network } from './read.ts';

export interface BridgeSection {
  /** `BRIDGE_NETWORK`, default `testnet`: the active bridge deployment (`config/bridge/<network>.json`). */
  bridgeNetwork: 'mainnet' | 'testnet';
  /** `BRIDGE_CONFIG_DIR`, default `config/bridge` (relative to the project). */
  bridgeConfigDir: string;
  /** `BRIDGE_ATTESTATION_KEY`: hex ed25519 seed that signs reserve reports; embedded mode generates one. */
  bridgeAttestationKey: string | undefined;
  /** `BRIDGE_STALE_AFTER_MS`, default 3,600,000: an older reserve snapshot is served with `stale: true`. */
  bridgeStaleAfterMs: number;
}

export function bridgeSection(env: NodeJS.ProcessEnv): BridgeSection {
  return {
    bridgeNetwork: network(env, 'BRIDGE_NETWORK', 'testnet'),
    bridgeConfigDir: resolve(PROJECT_ROOT, env.BRIDGE_CONFIG_DIR || 'config/bridge'),
    bridgeAttestationKey: env.BRIDGE_ATTESTATION_KEY || undefined,
    bridgeStaleAfterMs: int(env, 'BRIDGE_STALE_AFTER_MS', 3_600_000, 1_000, 365 * 86_400_000),
  };
}
