/**
 * Variables an operation does not declare are dropped before anything keeps or reads them: the response cache's key,
 * direct execution and the planner see only the declared ones. This is what the GraphQL spec's CoerceVariableValues
 * does anyway (it reads the operation's variable definitions and ignores every other entry), done early, so that a
 * request cannot make the router hold on to data the operation never uses (a megabyte of junk in a variable nobody
 * declared, sent again and again with a different value, would otherwise be a distinct cache entry each time).
 * Dropping rather than refusing keeps clients that send a shared variables object working (docs/graph.md).
 */
import { getOperationAST, getVariableValues } from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLSchema, OperationDefinitionNode } from 'graphql';

/**
 * The entries of `variables` that `operation` declares, in the order sent; `variables` itself (no copy) when every
 * entry is declared.
 */
export function declaredVariables(
  operation: Pick<OperationDefinitionNode, 'variableDefinitions'>,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const defs = operation.variableDefinitions ?? [];
  const names = Object.keys(variables);
  if (names.length === 0) return variables;
  const declared = new Set(defs.map((d) => d.variable.name.value));
  if (names.every((n) => declared.has(n))) return variables;
  // Own properties whatever the name (`__proto__` is a valid variable name).
  return Object.fromEntries(names.filter((n) => declared.has(n)).map((n) => [n, variables[n]]));
}

/**
 * The runtime plugin that coerces an operation's variables before anything else is done for it (the cost estimate
 * and budget, the response cache, direct execution, the plan): a value that does not coerce — a custom scalar's
 * included (`router/scalars.ts`) — is a request error answered at once with graphql-js's messages (`Variable "$v"
 * got invalid value …`, `BAD_USER_INPUT`: `router/engines/hive-http.ts`), no subgraph touched. The values are only
 * checked: the operation goes on with the variables as sent, which the runtime coerces again as it executes.
 */
export const coerceVariablesFirst = {
  onExecute({
    args,
    setResultAndStopExecution,
  }: {
    args: {
      schema: GraphQLSchema;
      document: DocumentNode;
      operationName?: string | null | undefined;
      variableValues?: Record<string, unknown> | null | undefined;
    };
    setResultAndStopExecution: (r: ExecutionResult) => void;
  }): void {
    const defs = getOperationAST(args.document, args.operationName)?.variableDefinitions;
    if (!defs?.length) return;
    const coerced = getVariableValues(args.schema, defs, args.variableValues ?? {});
    if (coerced.errors) setResultAndStopExecution({ errors: coerced.errors });
  },
};
