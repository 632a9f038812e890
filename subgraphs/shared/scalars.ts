/** Scalars shared by the subgraphs (each SDL declares `scalar DateTime` with the same description). */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { parseIso } from '../../src/market/chart-params.ts';

/** What a DateTime input must be (the rule of `parseIso`, shared with the REST API's dates). */
const EXPECTED =
  'DateTime must be an ISO 8601 date or date-time string such as 2026-01-01, 2026-01-01T12:30 or 2026-01-01T12:30:00.000Z (UTC unless an offset is given)';

/**
 * ISO 8601 UTC with milliseconds; resolvers may return UNIX milliseconds, an ISO string or a `Date`. Inputs are
 * checked strictly (`parseIso`: no `Date.parse` leniency such as "1" being the year 2001) and passed on as sent. The
 * router checks inputs with these same rules (`router/scalars.ts`).
 */
export const DateTime = new GraphQLScalarType<number | string | Date, string>({
  name: 'DateTime',
  description: 'A point in time as an ISO 8601 UTC string with milliseconds.',
  serialize: (v) => {
    const d = v instanceof Date ? v : new Date(typeof v === 'number' || typeof v === 'string' ? v : NaN);
    if (Number.isNaN(d.getTime()))
      throw new TypeError('DateTime must be UNIX milliseconds or an ISO 8601 string');
    return d.toISOString();
  },
  // A GraphQLError: graphql-js then reports it as the variable's error (`Variable "$f" got invalid value "x"; …`);
  // another error would be taken for a fault of the server and masked. A literal's TypeError is wrapped by graphql-js
  // validation with its location and expected type.
  parseValue: (v) => {
    if (typeof v !== 'string' || parseIso(v) === null) throw new GraphQLError(EXPECTED);
    return v;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || parseIso(ast.value) === null) throw new TypeError(EXPECTED);
    return ast.value;
  },
});
