/**
 * Allowed origins of a key's app (docs/apps.md), before parsing: a browser request (it carries `Origin`) with a key
 * whose app lists origins is refused 403 `ORIGIN_NOT_ALLOWED` unless its origin is listed. A request without
 * `Origin` (a server) is judged by the key's documents policy alone. Runs after the API key, before the budget.
 */
import type { AppPolicies } from '../../src/accounts/app-policy.ts';
import { originRefusal } from '../../src/accounts/app-policy.ts';
import type { RouterPlugin } from '../plugin.ts';

export function appOriginPlugin(policies: AppPolicies): RouterPlugin {
  return {
    name: 'app-origin',
    async onHttpRequest(req, state) {
      const key = state.caller?.key;
      if (!key || req.headers['origin'] === undefined) return;
      const refused = originRefusal(await policies.forKey(key.id), req.headers['origin']);
      if (refused) throw refused;
    },
  };
}
