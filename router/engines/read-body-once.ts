/**
 * A request's body is read and parsed once, by the router's transport: the runtime takes the parsed object
 * (`RouterServerContext.routerParams`) instead of reading and parsing the body again, and it is never written out as
 * text in between (its own JSON parser would give the same object).
 */
import type { RouterServerContext } from './context.ts';

export const readBodyOnce = {
  onRequestParse({
    serverContext,
    setRequestParser,
  }: {
    serverContext: unknown;
    setRequestParser: (parser: () => Record<string, unknown>) => void;
  }) {
    const params = (serverContext as RouterServerContext).routerParams;
    if (params) setRequestParser(() => params);
  },
};
