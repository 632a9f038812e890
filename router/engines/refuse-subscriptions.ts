/** A subscription over plain HTTP: refused as a client error (`noSubscriptions`); streams are served apart. */
import type { ExecutionResult, GraphQLError } from 'graphql';
import { fromApiError } from '../../subgraphs/shared/errors.ts';
import { routerErrors } from '../errors.ts';

/**
 * A subscription sent as a plain GraphQL-over-HTTP request: refused as a client error (the planner would fail on one:
 * a 500); subscriptions are served as streams (`router/subscriptions/`).
 */
const noSubscriptions = (): GraphQLError => fromApiError(routerErrors.subscriptionOverHttp());

export const refuseSubscriptions = {
  onSubscribe({ setResultAndStopExecution }: { setResultAndStopExecution: (r: ExecutionResult) => void }) {
    setResultAndStopExecution({ errors: [noSubscriptions()] });
  },
};
