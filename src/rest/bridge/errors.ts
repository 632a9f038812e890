import { ApiError } from '../../core/errors.ts';

/** Errors of the bridge read API. */
export const bridgeErrors = {
  noSnapshot: (network: string) =>
    new ApiError(
      404,
      'NO_SNAPSHOT',
      `no proof-of-reserves snapshot of the ${network} deployment exists yet: run \`coinwallet bridge snapshot --network ${network}\``,
    ),
};
