/** The portal's usage per tool and per document (src/web/pages/portal/operations.ts): rows from `ApiKey.operations`. */
import { describe, expect, it } from 'vitest';
import type { PortalKeyUsageQuery } from '../../src/web/generated/graphql.ts';
import { OPERATIONS_EMPTY, operationRows, shortId } from '../../src/web/pages/portal/operations.ts';
import type { KeyOperation } from '../../src/web/pages/portal/operations.ts';

type GraphOperation = NonNullable<PortalKeyUsageQuery['apiKey']>['operations'][number];

const HASH = `sha256:${'ab'.repeat(32)}`;
const tool: GraphOperation = {
  kind: 'TOOL',
  name: 'global',
  documentId: null,
  app: null,
  version: null,
  requests: 1234,
  errors: 1,
  refusals: 2,
  cost: 5678,
};
const doc: GraphOperation = {
  kind: 'DOCUMENT',
  name: 'Prices',
  documentId: HASH,
  app: 'my-dapp',
  version: '1.0.0',
  requests: 4,
  errors: 1,
  refusals: 1,
  cost: 8,
};

describe('operationRows', () => {
  it("a tool by its name, a document by its operation name with its app and version, in the graph's order", () => {
    // The graph's generated type is what the panel passes: it must fit.
    const ops: KeyOperation[] = [tool, doc];
    expect(operationRows(ops)).toEqual([
      {
        key: 'tool:global',
        label: 'global',
        source: 'MCP tool',
        requests: '1,234',
        errors: '1',
        refusals: '2',
        cost: '5,678',
      },
      {
        key: `document:my-dapp:1.0.0:${HASH}`,
        label: 'Prices',
        source: 'Document of my-dapp, version 1.0.0',
        title: HASH,
        requests: '4',
        errors: '1',
        refusals: '1',
        cost: '8',
      },
    ]);
  });

  it('a document without an operation name (the graph names it by its id) shows its shortened id', () => {
    const [row] = operationRows([{ ...doc, name: HASH }]);
    expect(row?.label).toBe(shortId(HASH));
    expect(row?.label).toBe(`sha256:abababababab…`);
    expect(row?.title).toBe(HASH);
  });

  it('the same document under two versions is two rows with distinct keys', () => {
    const rows = operationRows([doc, { ...doc, version: '2.0.0' }]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(2);
  });

  it('no rows (the empty state) without any request', () => {
    expect(operationRows([])).toEqual([]);
    expect(operationRows([{ ...tool, requests: 0, errors: 0, refusals: 0, cost: 0 }])).toEqual([]);
    expect(OPERATIONS_EMPTY).toBe('No tool or document calls in the last 30 days.');
  });
});
