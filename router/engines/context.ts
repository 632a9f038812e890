/**
 * What the engine hands Hive Gateway's runtime with each request, merged into the GraphQL context: the sources'
 * per-request context and the router's own (the plugins' state, the headers its answer gains, the work it holds).
 * The runtime plugins of `router/engines/` read it back from the server context or the GraphQL context.
 */
import type { OperationState, RequestState } from '../plugin.ts';
import type { SourceContext } from '../sources/source.ts';
import type { WithRouterSource } from './hive-sources.ts';

/** The router's part of one request's context. */
export interface RouterContext {
  state: RequestState;
  opState: OperationState;
  headers: Record<string, string>;
  /** Ends the operation's expensive work (the load shedder's count) once it is answered. */
  endWork?: (() => void) | undefined;
  /** Ends a heavy operation's turn (`LoadShedder.heavyTurn`) once it is answered; set while it has one. */
  endTurn?: (() => void) | undefined;
  /** An answer for the response cache, kept once it is serialised (weighed by its length as sent). */
  toCache?: { key: string; data: Record<string, unknown> } | undefined;
  /** Delivered incrementally (`@defer`, `@stream` over `multipart/mixed` or SSE): `incrementalAsked`. */
  incremental?: boolean;
}

export interface RouterServerContext extends WithRouterSource {
  routerSource: SourceContext;
  router: RouterContext;
  /** A POST's body as the router's transport parsed it: the runtime takes it as is (`readBodyOnce`). */
  routerParams?: Record<string, unknown>;
}
