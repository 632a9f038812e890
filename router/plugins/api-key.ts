/**
 * API key, before parsing: the price API's access layer (same keys, same 400/401 cases and messages; header
 * `x-sp-api-key` or query `x_sp_api_key`, plus the CoinGecko aliases). A keyless caller is identified by address.
 * `onKey` is the check alone: before a request's body is read, when a WebSocket connects and on each tick of a
 * subscription (a key revoked since ends it).
 */
import type { Access } from '../../src/access/access.ts';
import type { HeadInfo, RequestState, RouterPlugin } from '../plugin.ts';

export function apiKeyPlugin(access: Pick<Access, 'identify'>): RouterPlugin {
  const onKey = async (head: HeadInfo, state: RequestState) => {
    const who = await access.identify(head);
    if ('ok' in who) {
      state.refusedPlan = who.plan ?? 'keyless';
      state.refusedKeyId = who.keyId;
      throw who;
    }
    state.caller = who;
  };
  return {
    name: 'api-key',
    onKey,
    async onHttpRequest(req, state) {
      if (req.caller) state.caller = req.caller;
      else await onKey(req, state);
    },
  };
}
