/** Scalars shared by the subgraphs (each SDL declares `scalar DateTime` with the same description). */
import { GraphQLScalarType, Kind } from 'graphql';

/** ISO 8601 UTC with milliseconds; resolvers may return UNIX milliseconds, an ISO string or a `Date`. */
export const DateTime = new GraphQLScalarType<number | string | Date, string>({
  name: 'DateTime',
  description: 'A point in time as an ISO 8601 UTC string with milliseconds.',
  serialize: (v) => {
    const d = v instanceof Date ? v : new Date(typeof v === 'number' || typeof v === 'string' ? v : NaN);
    if (Number.isNaN(d.getTime()))
      throw new TypeError('DateTime must be UNIX milliseconds or an ISO 8601 string');
    return d.toISOString();
  },
  parseValue: (v) => {
    if (typeof v !== 'string' || Number.isNaN(Date.parse(v)))
      throw new TypeError('DateTime must be ISO 8601');
    return v;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || Number.isNaN(Date.parse(ast.value)))
      throw new TypeError('DateTime must be ISO 8601');
    return ast.value;
  },
});
