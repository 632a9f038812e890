import { errorCatalog } from '../core/errors.ts';

/** Errors of the bridge's read side (`src/rest/bridge/`, the bridge subgraph). */
export const bridgeErrors = errorCatalog('bridge', {
  noSnapshot: {
    status: 404,
    code: 'NO_SNAPSHOT',
    message: (network: string) =>
      `no proof-of-reserves snapshot of the ${network} deployment exists yet: run \`coinwallet bridge snapshot --network ${network}\``,
  },
});
