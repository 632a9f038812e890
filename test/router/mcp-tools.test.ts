/** MCP tools from operations (`router/mcp/tools.ts`): names, descriptions and input schemas. */
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationTools, snakeCase } from '../../router/mcp/tools.ts';

const schema = buildSchema(`
  enum Order { ASC DESC }
  input Range { from: Int!, to: Int = 10, "Whole days only." whole: Boolean }
  type Coin { id: ID! price(currency: String!): Float }
  type Query {
    coins("""Page size, 1–250.""" first: Int = 50, order: Order, ids: [ID!], range: Range): [Coin!]!
    coin("""The coin's id.""" id: ID!): Coin
  }
  type Mutation { rename(name: String!): Boolean }
`);

const SOURCE = `# A file header, not a description.

# A coin's fields.
fragment Row on Coin {
  id
  price(currency: $currency)
}

# One page of coins,
# in order.
query CoinPage($first: Int = 20, $order: Order, $ids: [ID!], $range: Range, $currency: String! = "usd") {
  coins(first: $first, order: $order, ids: $ids, range: $range) { ...Row }
}

query Coin($id: ID!, $currency: String!) { coin(id: $id) { ...Row } }

# Never a tool.
mutation Rename($name: String!) { rename(name: $name) }
`;

describe('operation tools', () => {
  const tools = operationTools(schema, SOURCE);

  it('one tool per named query, named in snake case, described by the comment right above it', () => {
    expect(tools.map((t) => t.name)).toEqual(['coin_page', 'coin']);
    expect(tools[0]?.description).toBe('One page of coins, in order.');
    expect(tools[1]?.description).toBe('The Coin query.');
    expect(['CoinChart', 'ReverseName', 'ProofOfReserves', 'OHLCData'].map(snakeCase)).toEqual([
      'coin_chart',
      'reverse_name',
      'proof_of_reserves',
      'ohlc_data',
    ]);
  });

  it('an input schema from the variables: types, enums, lists, input objects, defaults, required, descriptions', () => {
    expect(tools[0]?.inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
      required: [],
      properties: {
        first: { type: 'integer', default: 20, description: 'Page size, 1–250.' },
        order: { type: 'string', enum: ['ASC', 'DESC'] },
        ids: { type: 'array', items: { type: 'string' } },
        range: {
          type: 'object',
          additionalProperties: false,
          required: ['from'],
          properties: {
            from: { type: 'integer' },
            to: { type: 'integer' },
            whole: { type: 'boolean', description: 'Whole days only.' },
          },
        },
        currency: { type: 'string', default: 'usd' },
      },
    });
    expect(tools[1]?.inputSchema.required).toEqual(['id', 'currency']);
    expect(tools[1]?.inputSchema.properties).toMatchObject({ id: { description: "The coin's id." } });
  });

  it('sends the operation with the fragments it spreads, and `only` keeps the listed operations', () => {
    expect(tools[1]?.query).toContain('fragment Row on Coin');
    expect(tools[1]?.operationName).toBe('Coin');
    expect(operationTools(schema, SOURCE, ['Coin']).map((t) => t.name)).toEqual(['coin']);
  });
});
