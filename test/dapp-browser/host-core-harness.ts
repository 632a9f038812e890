/**
 * Shared by the HostCore tests (host-core.test.ts, host-core-deposit-identity.test.ts): a HostCore over a development
 * wallet and a fake platform, connected or not, and helpers to read its answers.
 */
import { DevWallet } from '../../src/dapp-browser/dev-wallet.ts';
import type { HostAnswer, PromptView } from '../../src/dapp-browser/host-core.ts';
import { HostCore } from '../../src/dapp-browser/host-core.ts';
import type { BridgeConfig, BridgeLane, Platform } from '../../src/dapp-browser/platform.ts';
import { PlatformError } from '../../src/dapp-browser/platform.ts';

export const DAPP = 'https://dapp.example';
export const IDENTITY = 'https://names.example';
export const DEPOSIT = 'npyK4QkJUoAyvG4JfFGSTMMaRPWcXHHzAU';
export const NOW = 1_767_225_600_000;
export const SEED = 'host-core test';

export const lane = (o: Partial<BridgeLane> = {}): BridgeLane => ({
  id: 'lky-wrap',
  asset: 'LKY',
  direction: 'wrap',
  status: 'active',
  pausedReason: null,
  minAmount: '100000000',
  maxAmount: '1000000000000',
  fees: { fixed: '10000000', percent: 0.1 },
  depositAddress: DEPOSIT,
  ...o,
});

export function setup(
  o: {
    coins?: string[];
    listed?: string[];
    down?: boolean;
    allowUnlisted?: boolean;
    lanes?: BridgeLane[];
    lkyBalance?: bigint;
  } = {},
) {
  const accessCalls: string[] = [];
  const platform: Platform = {
    domain: '127.0.0.1:4000',
    origin: 'http://127.0.0.1:4000',
    async access(origin) {
      accessCalls.push(origin);
      if (o.down) throw new PlatformError('connection refused');
      return { allowed: (o.listed ?? [DAPP, IDENTITY]).includes(origin), dappId: null };
    },
    async bridgeConfig(): Promise<BridgeConfig> {
      if (o.down) throw new PlatformError('connection refused');
      return { network: 'testnet', version: 't1', lanes: o.lanes ?? [lane()] };
    },
  };
  const wallet = new DevWallet(SEED, o.coins ?? ['LTC', 'DOGE', 'LKY', 'SOL']);
  const core = new HostCore({
    wallet,
    platform,
    allowUnlisted: o.allowUnlisted ?? false,
    identityOrigin: IDENTITY,
    lkyBalance: o.lkyBalance ?? 10_000_000_000n,
    now: () => NOW,
  });
  return { core, wallet, accessCalls };
}

export function promptOf(a: HostAnswer): PromptView {
  if (!('prompt' in a)) throw new Error(`expected a prompt, got ${JSON.stringify(a)}`);
  return a.prompt;
}

export async function approved(core: HostCore, a: HostAnswer | Promise<HostAnswer>) {
  return core.decide(promptOf(await a).id, true);
}

export async function connected(
  o: Parameters<typeof setup>[0] = {},
  tickers = ['LTC', 'DOGE', 'LKY', 'SOL'],
  origin = DAPP,
) {
  const s = setup(o);
  const r = await approved(s.core, s.core.request(origin, 'wallet_connect', { tickers }));
  if (!('result' in r)) throw new Error(JSON.stringify(r));
  return s;
}

export const errorOf = (a: HostAnswer) =>
  'error' in a ? { code: a.error.code, reason: a.error.data.reason } : a;
