/**
 * The domain services over a test's store, built as start-up builds them (`createServices`): sign-in challenges naming
 * `domain`, names under `.coin` validated for mainnet, the testnet bridge deployment, API keys with a test pepper.
 */
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import { createServices } from '../../src/services.ts';
import type { KeyServices, Services } from '../../src/services.ts';
import type { Db } from '../../src/store/db.ts';

export function testServices(db: Db, domain: string): Services & KeyServices {
  return createServices(
    db,
    { domain, nameSuffix: 'coin', nameNetwork: 'mainnet', bridge: { deployment: loadDeployment('testnet') } },
    { keys: new ApiKeyService(db, { pepper: 'test-pepper-0123456789abcdef' }) },
  );
}
