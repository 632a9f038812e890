/**
 * Usage per operation of one key, as the portal's usage panel shows it (docs/mcp.md "Usage per tool", docs/apps.md
 * "Usage per document"): the graph's `ApiKey.operations` rows turned into table rows. Pure, unit-tested in
 * test/web/portal-operations.test.ts.
 */

/** How many UTC days the panel asks for (today included): the window the graph and REST default to. */
export const OPERATION_DAYS = 30;

/** The text shown when the key called no tool and ran no document of its app in the window. */
export const OPERATIONS_EMPTY = `No tool or document calls in the last ${OPERATION_DAYS} days.`;

/** One `KeyOperationUsage` of the graph (the fields the portal asks for). */
export interface KeyOperation {
  kind: 'DOCUMENT' | 'TOOL';
  name: string;
  documentId?: string | null;
  app?: string | null;
  version?: string | null;
  requests: number;
  errors: number;
  refusals: number;
  cost: number;
}

/** One row of the table: what was called, where it comes from, and its counts as displayed. */
export interface OperationRow {
  /** Stable across renders: the kind, then the tool's name or the document's app, version and id. */
  key: string;
  /** The tool's name, or the document's operation name (its shortened id when it has none). */
  label: string;
  /** "MCP tool", or "Document of APP, version V". */
  source: string;
  /** The document's full id, as a tooltip; absent for a tool. */
  title?: string;
  requests: string;
  errors: string;
  refusals: string;
  cost: string;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** `sha256:0123456789ab…`: enough of a document id to tell it apart in a table. */
export const shortId = (id: string): string => (id.length > 19 ? `${id.slice(0, 19)}…` : id);

/**
 * The table's rows, in the graph's order (tools, then documents, most requested first). A document the graph names
 * by its id (no operation name) is shown by its shortened id; operations with no request are left out.
 */
export function operationRows(ops: readonly KeyOperation[]): OperationRow[] {
  return ops
    .filter((o) => o.requests > 0)
    .map((o) => {
      const counts = {
        requests: count(o.requests),
        errors: count(o.errors),
        refusals: count(o.refusals),
        cost: count(o.cost),
      };
      if (o.kind === 'TOOL') return { key: `tool:${o.name}`, label: o.name, source: 'MCP tool', ...counts };
      const id = o.documentId ?? o.name;
      return {
        key: `document:${o.app ?? ''}:${o.version ?? ''}:${id}`,
        label: o.name === id ? shortId(id) : o.name,
        source: `Document of ${o.app ?? 'an app'}, version ${o.version ?? '?'}`,
        title: id,
        ...counts,
      };
    });
}
