/**
 * The limits as graphql-js validation rules (`router/plugins/limits.ts`): run by graphql-js's own `validate` beside
 * the specified rules, as graphql-armor's are, and by the router's adapter, which measures the operation chosen and
 * stops at the first refusal (the router's code and message).
 */
import { buildSchema, getOperationAST, parse, specifiedRules, validate } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.ts';
import { routerErrors } from '../../router/errors.ts';
import { DEFAULT_LIMITS, limitRefusal, limitRules, maxDepthRule } from '../../router/plugins/limits.ts';

const schema = buildSchema(`
  type Coin { id: ID! name: String! related: [Coin!]! }
  type Query { coin(id: ID!): Coin coins: [Coin!]! }
`);
const limits = { ...DEFAULT_LIMITS, maxDepth: 3, maxAliases: 2, maxDirectives: 2, maxFields: 20 };
const rules = limitRules(limits);

/** What the adapter answers for `query` (its operation `name`, else the only one). */
function refusal(query: string, name?: string) {
  const document = parse(query);
  const operation = getOperationAST(document, name) as OperationDefinitionNode;
  const r = limitRefusal(schema, document, operation, rules);
  return r && { code: r.code, message: r.message, status: r.status };
}

const DEEP = '{ coin(id: "a") { related { related { related { id } } } } }';

describe('the limit rules under graphql-js validate', () => {
  it('report each limit with the router’s code and message, beside the specified rules', () => {
    const errors = validate(schema, parse(DEEP), [...specifiedRules, ...rules]);
    expect(errors.map((e) => [e.extensions['code'], e.message])).toEqual([
      ['MAX_DEPTH_EXCEEDED', routerErrors.tooDeep(5, 3).message],
    ]);
    expect(errors[0]?.originalError).toBeInstanceOf(ApiError);
    const aliased = validate(schema, parse('{ a: coins { id } b: coins { id } c: coins { id } }'), rules);
    expect(aliased.map((e) => e.extensions['code'])).toEqual(['MAX_ALIASES_EXCEEDED']);
    expect(validate(schema, parse('{ coins { id name } }'), [...specifiedRules, ...rules])).toEqual([]);
  });

  it('measure every operation of the document, as graphql-armor’s do', () => {
    const doc = parse(`query Small { coins { id } } query Deep ${DEEP}`);
    expect(validate(schema, doc, [maxDepthRule(3)]).map((e) => e.extensions['code'])).toEqual([
      'MAX_DEPTH_EXCEEDED',
    ]);
  });
});

describe('the adapter', () => {
  it('answers the router’s refusal: status, code and message', () => {
    expect(refusal(DEEP)).toEqual({
      status: 400,
      code: 'MAX_DEPTH_EXCEEDED',
      message: 'the operation nests fields 5 deep: at most 3 levels are allowed',
    });
    expect(refusal('{ coins @include(if: true) @skip(if: false) { id @skip(if: false) } }')).toMatchObject({
      code: 'MAX_DIRECTIVES_EXCEEDED',
    });
    expect(refusal('{ coins { id name } }')).toBeNull();
  });

  it('measures the operation chosen only', () => {
    const doc = `query Small { coins { id } } query Deep ${DEEP}`;
    expect(refusal(doc, 'Small')).toBeNull();
    expect(refusal(doc, 'Deep')).toMatchObject({ code: 'MAX_DEPTH_EXCEEDED' });
  });

  it('stops at the first refusal, the linear field count first: a fragment bomb is refused at once', () => {
    const levels = 60;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Coin { related { ...F${i + 1} } related { ...F${i + 1} } }`,
    ).join('\n');
    const bomb = `{ coin(id: "a") { ...F0 } }\n${fragments}\nfragment F${levels} on Coin { id }`;
    const started = performance.now();
    const r = refusal(bomb);
    expect(r?.code).toBe('MAX_FIELDS_EXCEEDED');
    expect(r?.message).toContain('more than 20 fields');
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
