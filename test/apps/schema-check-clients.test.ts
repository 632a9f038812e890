/**
 * Our own CI's schema check: the documents of our own clients (the typed client in clients/graph, the kits, the
 * pages), as their codegen wrote them, are the published set, and `schema/api.graphql` is checked against them by the
 * same domain function as `coinwallet schema check`. A change to the schema that breaks one of them fails `npm test`
 * here, naming the document. The second case proves it can fail: a copy of the schema without a field the typed
 * client selects.
 */
import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { parseTrustedManifest } from '../../src/accounts/app-manifest.ts';
import { checkSchema } from '../../router/trusted/schema-check-report.ts';
import type {
  AffectedDocument,
  PublishedDocument,
  SchemaCheckReport,
} from '../../src/accounts/schema-check.ts';

/** Each client, as an "app", with the persisted documents its codegen generates (drift-checked by codegen). */
const CLIENTS = {
  'clients/graph': 'clients/graph/generated/persisted-documents.json',
  kit: 'src/kit/generated/persisted-documents.json',
  pages: 'src/web/generated/persisted-documents.json',
};

const SDL = readFileSync('schema/api.graphql', 'utf8');
const PUBLISHED: PublishedDocument[] = Object.entries(CLIENTS).flatMap(([app, file]) =>
  parseTrustedManifest(readFileSync(file, 'utf8')).map((d) => ({
    appId: app,
    app,
    version: 'committed',
    hash: d.hash,
    name: d.name,
    body: d.body,
  })),
);

/** Every document the report says is broken, one line each, naming the client, the operation and why. */
function broken(r: SchemaCheckReport): string[] {
  const line = (where: string, d: AffectedDocument) =>
    `${where}: ${d.app} ${d.operationName ?? '(anonymous)'} ${d.documentId}: ${d.reasons.join('; ')}`;
  return [
    ...r.breaking.flatMap((c) => c.documents.map((d) => line(c.description, d))),
    ...r.other.map((d) => line('other', d)),
    ...r.alreadyInvalid.map((d) => line('invalid against schema/api.graphql', d)),
  ];
}

describe("schema/api.graphql against our own clients' documents", () => {
  it('reads every client', () => {
    for (const app of Object.keys(CLIENTS))
      expect(PUBLISHED.filter((d) => d.app === app).length, app).toBeGreaterThan(0);
  });

  it('breaks none of them', async () => {
    const schema = buildSchema(SDL);
    const report = await checkSchema(schema, schema, PUBLISHED);
    expect(report.documents).toBe(PUBLISHED.length);
    expect(broken(report)).toEqual([]);
  });

  it('a copy without a field the typed client selects: the check names that document', async () => {
    const field = '  """Coins with an aggregate price."""\n  activeCryptocurrencies: Int!\n';
    expect(SDL).toContain(field);
    const report = await checkSchema(buildSchema(SDL), buildSchema(SDL.replace(field, '')), PUBLISHED);
    expect(report.breaking).toMatchObject([
      {
        type: 'FIELD_REMOVED',
        coordinates: ['GlobalMarket.activeCryptocurrencies'],
        documents: [{ app: 'clients/graph', operationName: 'Global' }],
      },
    ]);
    expect(broken(report)).toEqual([
      expect.stringMatching(
        /^GlobalMarket.activeCryptocurrencies was removed.: clients\/graph Global sha256:/,
      ),
    ]);
  });
});
