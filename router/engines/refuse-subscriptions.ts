/** A subscription over plain HTTP: refused as a client error (`noSubscriptions`); streams are served apart. */
import type { ExecutionResult } from 'graphql';
import { noSubscriptions } from '../engine.ts';

export const refuseSubscriptions = {
  onSubscribe({ setResultAndStopExecution }: { setResultAndStopExecution: (r: ExecutionResult) => void }) {
    setResultAndStopExecution({ errors: [noSubscriptions()] });
  },
};
