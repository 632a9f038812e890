/**
 * The schema check the domain is handed (`src/accounts/schema-check.ts` `SchemaCheck`): the proposed SDL built into
 * a schema and validated (400 `INVALID_SCHEMA` with graphql-js's message and where), then compared with the API schema
 * the router serves (`schema/api.graphql`) by `schema-check-report.ts`.
 */
import { readFileSync } from 'node:fs';
import { assertValidSchema, buildSchema } from 'graphql';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import { appErrors } from '../../src/accounts/app-errors.ts';
import type { SchemaCheck } from '../../src/accounts/schema-check.ts';
import { projectPath } from '../../src/core/project-root.ts';
import { checkSchema } from './schema-check-report.ts';

/** The current schema: `apiSdl`, default the committed `schema/api.graphql`; built on the first check. */
export function schemaCheck(opts: { apiSdl?: string } = {}): SchemaCheck {
  let current: GraphQLSchema | undefined;
  return (sdl, documents, usage) => {
    const proposed = proposedSchema(sdl);
    current ??= buildSchema(opts.apiSdl ?? readFileSync(projectPath('schema', 'api.graphql'), 'utf8'));
    return checkSchema(current, proposed, documents, usage);
  };
}

/** `sdl` built into a valid schema, or 400 `INVALID_SCHEMA` saying why (and where, for a syntax error). */
export function proposedSchema(sdl: string): GraphQLSchema {
  try {
    const schema = buildSchema(sdl);
    assertValidSchema(schema);
    return schema;
  } catch (err) {
    const e = err as GraphQLError;
    const at = e.locations?.[0];
    throw appErrors.invalidSchema(at ? `${e.message} (line ${at.line}, column ${at.column})` : e.message);
  }
}
