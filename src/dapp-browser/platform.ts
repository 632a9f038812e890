/**
 * What the emulator asks the platform (`--api`): the dapp store's access check (`GET /api/dapps/access?origin=`,
 * docs/dapps.md) and the active bridge deployment (`GET /api/config`, docs/bridge.md), read fresh each time (a
 * delisting or a new deposit address applies at once).
 */

export interface BridgeLane {
  id: string;
  asset: string;
  direction: 'wrap' | 'unwrap';
  status: 'active' | 'paused';
  pausedReason: string | null;
  minAmount: string;
  maxAmount: string;
  fees: { fixed: string; percent: number };
  depositAddress: string | null;
}

export interface BridgeConfig {
  network: string;
  version: string;
  lanes: BridgeLane[];
}

/** The platform as the host core sees it (tests substitute their own). */
export interface Platform {
  /** The domain the platform's sign-in challenges name (`SIGN_IN_DOMAIN`, else `host[:port]` of `--api`). */
  readonly domain: string;
  /** The platform's origin (the default identity origin). */
  readonly origin: string;
  access(origin: string): Promise<{ allowed: boolean; dappId: string | null }>;
  bridgeConfig(): Promise<BridgeConfig>;
}

export class PlatformError extends Error {}

const TIMEOUT_MS = 5_000;

export class HttpPlatform implements Platform {
  readonly domain: string;
  readonly origin: string;
  readonly #base: string;

  /** `signInDomain`: the platform's `SIGN_IN_DOMAIN` when it sets one; default the host (and port) of `api`. */
  constructor(api: string, o: { signInDomain?: string | undefined } = {}) {
    const u = new URL(api);
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new Error(`--api must be an http(s) URL: ${api}`);
    this.domain = o.signInDomain?.toLowerCase() ?? u.host;
    this.origin = u.origin;
    this.#base = `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  }

  async #get(path: string): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.#base}${path}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new PlatformError(`the platform at ${this.#base} did not answer ${path}: ${String(err)}`);
    }
    if (!res.ok) throw new PlatformError(`the platform answered ${path} with HTTP ${res.status}`);
    return res.json();
  }

  async access(origin: string): Promise<{ allowed: boolean; dappId: string | null }> {
    const body = (await this.#get(`/api/dapps/access?origin=${encodeURIComponent(origin)}`)) as {
      allowed?: unknown;
      dappId?: unknown;
    };
    return { allowed: body.allowed === true, dappId: typeof body.dappId === 'string' ? body.dappId : null };
  }

  async bridgeConfig(): Promise<BridgeConfig> {
    const body = (await this.#get('/api/config')) as Partial<BridgeConfig>;
    if (!Array.isArray(body.lanes) || typeof body.network !== 'string') {
      throw new PlatformError('the platform /api/config is not a bridge configuration');
    }
    return { network: body.network, version: String(body.version ?? ''), lanes: body.lanes };
  }
}

/** The deployment's LKY deposit lane (LKY → wLKY), if it has one. */
export function lkyDepositLane(c: BridgeConfig): BridgeLane | undefined {
  return c.lanes.find((l) => l.asset === 'LKY' && l.direction === 'wrap');
}
