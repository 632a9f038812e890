/**
 * API key, before parsing: the price API's access layer (same keys, same 400/401 cases and messages; header
 * `x-sp-api-key` or query `x_sp_api_key`, plus the CoinGecko aliases). A keyless caller is identified by address.
 */
import type { Access } from '../../src/access/access.ts';
import type { RouterPlugin } from '../plugin.ts';

export function apiKeyPlugin(access: Pick<Access, 'identify'>): RouterPlugin {
  return {
    name: 'api-key',
    async onHttpRequest(req, state) {
      if (req.caller) {
        state.caller = req.caller;
        return;
      }
      const who = await access.identify({ headers: req.headers, query: req.query, socketIp: req.socketIp });
      if ('ok' in who) {
        state.refusedPlan = who.plan ?? 'keyless';
        state.refusedKeyId = who.keyId;
        throw who;
      }
      state.caller = who;
    },
  };
}
