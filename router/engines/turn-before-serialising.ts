/**
 * Heavy work lets the event loop turn once between its execution and the serialisation of its answer (a chart of
 * thousands of points: a few ms each), two shorter tasks instead of one long one for the requests waiting behind.
 */
import { nextTurn } from '../../src/core/turns.ts';
import type { RouterServerContext } from './context.ts';

export const turnBeforeSerialising = {
  onResultProcess({ serverContext }: { serverContext: unknown }): Promise<void> | undefined {
    if (!(serverContext as Partial<RouterServerContext>).router?.endTurn) return undefined;
    return nextTurn();
  },
};
