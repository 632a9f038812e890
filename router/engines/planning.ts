/**
 * What the runtime is asked to plan and execute for an admitted operation, when it is not its document as sent:
 * repeated response keys merged (`plannable.ts`), introspection run against the gateway's own schema
 * (`introspection.ts`), and with tracing on, the execution in a `router.execute` span with its `router.plan` child.
 * An incremental operation goes to the JS planner as sent.
 */
import { execute as executeLocally, getOperationAST } from 'graphql';
import type { DocumentNode, ExecutionArgs, ExecutionResult, OperationDefinitionNode } from 'graphql';
import { inSpan, startSpan, tracingEnabled } from '../../src/core/trace.ts';
import type { RouterPlanner } from '../options.ts';
import type { SourceContext } from '../sources/source.ts';
import { introspectionOnly, mergeInOrder, splitIntrospection } from './introspection.ts';
import { withRepeatedFieldsMerged } from './plannable.ts';

export type Execute = (a: ExecutionArgs) => Promise<ExecutionResult>;

/** One admitted operation as the runtime's `onExecute` sees it. */
export interface Planned {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | null | undefined;
  /** Its variables, the undeclared ones dropped. */
  variables: Record<string, unknown>;
  incremental: boolean;
  source: SourceContext;
}

/**
 * The execution to run instead of the runtime's `executeFn`, or null to run that one unchanged: the introspection of
 * a query that selects only introspection (with the Rust planner) run locally, a mixed query split in two and merged,
 * a document with repeated response keys replaced by its merged form; each traced when tracing is on.
 */
export function plannedRun(
  op: Planned,
  planner: RouterPlanner | undefined,
  executeFn: (a: ExecutionArgs) => unknown,
): Execute | null {
  const planned = op.incremental ? op.document : withRepeatedFieldsMerged(op.document, op.variables);
  const split = op.incremental
    ? null
    : splitIntrospection(
        planned,
        planned === op.document ? op.operation : getOperationAST(planned, op.operationName ?? undefined)!,
      );
  let run: Execute | null = null;
  if (!op.incremental && planner !== 'js' && introspectionOnly(op.operation))
    run = async (a: ExecutionArgs) => executeLocally(a) as ExecutionResult;
  else if (split)
    run = async (a: ExecutionArgs) => {
      const [intro, rest] = await Promise.all([
        executeLocally({ ...a, document: split.introspection }) as ExecutionResult,
        executeFn({ ...a, document: split.rest }),
      ]);
      return mergeInOrder(split.order, intro, rest as ExecutionResult);
    };
  else if (planned !== op.document)
    run = (a: ExecutionArgs) => executeFn({ ...a, document: planned }) as Promise<ExecutionResult>;
  if (tracingEnabled()) run = traced(run ?? (executeFn as Execute), op.source);
  return run;
}

/**
 * The runtime's execution in a `router.execute` span, with a `router.plan` child from its start to the plan's first
 * subgraph fetch: the planner plans (or finds the document's plan in its cache), then the fetches start.
 */
function traced(run: Execute, source: SourceContext): Execute {
  return (a) =>
    inSpan('router.execute', {}, async () => {
      const plan = startSpan('router.plan', {});
      let open = plan !== null;
      const planned = () => {
        if (open) plan?.end();
        open = false;
      };
      source.fetchStarting = planned;
      try {
        return await run(a);
      } finally {
        planned();
      }
    });
}
