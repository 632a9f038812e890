/**
 * The measured cost (`router/cost/measured.ts`): the estimate's rules on the answer itself. An answer whose lists
 * have exactly the sizes the estimate assumed costs the estimate; shorter lists, nulls and fragments that did not
 * apply cost less.
 */
import { describe, expect, it } from 'vitest';
import { execute, parse } from 'graphql';
import { measuredCost } from '../../router/cost/measured.ts';
import { cost, graph, split } from './support/cost.ts';
import type { Graph } from './support/cost.ts';

const g = graph(`
  type Query {
    book(id: ID): Book
    bestsellers: [Book] @listSize(assumedSize: 5)
    newest(limit: Int!): [Book] @listSize(slicingArguments: ["limit"])
    search(text: String!, filter: Filter): [Result!]! @listSize(assumedSize: 3)
    stats: Int @cost(weight: 7)
  }
  type Mutation { addBook(title: String!): Book }
  input Filter { kind: String }
  type Book { title: String author: Author publisher: Publisher }
  type Author { name: String }
  type Publisher { name: String address: Address }
  type Address @cost(weight: 5) { zipCode: Int! }
  union Result = Book | Author
`);

const book = (i: number) => ({
  title: `t${i}`,
  author: { name: 'a' },
  publisher: { name: 'p', address: { zipCode: 1 } },
});

function measured(graph: Graph, query: string, root: unknown, variables?: Record<string, unknown>) {
  const { op, fragments } = split(query);
  const answer = execute({
    schema: graph.schema,
    document: parse(query),
    rootValue: root,
    ...(variables ? { variableValues: variables } : {}),
  });
  if ('then' in answer) throw new Error('synchronous execution expected');
  return measuredCost(graph.schema, op, fragments, variables, answer.data, { directives: graph.directives });
}

const selection = 'title author { name } publisher { name address { zipCode } }';

describe('measured cost', () => {
  it('equals the estimate when every list has the size the estimate assumed', () => {
    const five = Array.from({ length: 5 }, (_, i) => book(i));
    const q = `{ bestsellers { ${selection} } newest(limit: 2) { ${selection} } stats }`;
    const root = { bestsellers: five, newest: five.slice(0, 2), stats: 1 };
    expect(cost(g, q)).toBe(5 * 8 + 2 * 8 + 7);
    expect(measured(g, q, root)).toBe(cost(g, q));
  });

  it('counts lists at the length they have, and a null object as its weight alone', () => {
    const q = `{ bestsellers { ${selection} } }`;
    expect(measured(g, q, { bestsellers: [book(1), book(2)] })).toBe(2 * 8);
    expect(measured(g, q, { bestsellers: [] })).toBe(0);
    // A book without publisher: 1 (book) + 1 (author) + 1 (publisher, null): 3.
    expect(measured(g, q, { bestsellers: [{ ...book(1), publisher: null }] })).toBe(3);
    // Larger than assumed: the answer's own size counts (7 × 8).
    expect(measured(g, q, { bestsellers: Array.from({ length: 7 }, (_, i) => book(i)) })).toBe(56);
  });

  it('merges a field selected twice, follows aliases, and applies only the fragments of each item’s type', () => {
    const q = `{
      search(text: "x", filter: { kind: "k" }) {
        __typename
        ... on Book { title publisher { address { zipCode } } }
        ... on Author { name }
      }
      a: book(id: 1) { author { name } }
      b: book(id: 2) { author { name } author { name } }
    }`;
    const root = {
      search: [
        { __typename: 'Book', ...book(1) },
        { __typename: 'Author', name: 'n' },
      ],
      book: () => book(9),
    };
    // search: argument filter 1; Book 1 + publisher 1 + address 5 = 7; Author 1 → 8 + 1 = 9;
    // a: book 1 + author 1 = 2; b: the same (author merged) = 2.
    expect(measured(g, q, root)).toBe(9 + 2 + 2);
  });

  it('leaves out what a variable skipped, adds a mutation’s base and introspection’s flat cost', () => {
    const q = `query ($full: Boolean!) { book(id: 1) { title publisher @include(if: $full) { address { zipCode } } } }`;
    expect(measured(g, q, { book: book(1) }, { full: false })).toBe(1);
    expect(measured(g, q, { book: book(1) }, { full: true })).toBe(1 + 1 + 5);
    expect(measured(g, `mutation { addBook(title: "t") { title } }`, { addBook: book(1) })).toBe(10 + 1);
    expect(measured(g, `{ __schema { queryType { name } } stats }`, { stats: 2 })).toBe(50 + 7);
  });
});
