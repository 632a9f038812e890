/**
 * Kits already installed in dapps keep working after a kit query changes: the product router accepts the retired
 * documents (src/kit/retired-persisted-documents.json) by id, and each still validates against today's API schema.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import {
  KIT_PERSISTED_DOCUMENTS_PATH,
  KIT_RETIRED_DOCUMENTS_PATH,
} from '../../src/server/browser/kit-manifest.ts';
import { persistedOperations } from '../../src/start/wiring.ts';

const { buildSchema, parse, validate } = createRequire(import.meta.url)('graphql') as typeof GraphQL;
const API = buildSchema(readFileSync(new URL('../../schema/api.graphql', import.meta.url), 'utf8'));
const json = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, string>;

describe('retired kit documents', () => {
  const retired = json(KIT_RETIRED_DOCUMENTS_PATH);

  it('holds the resolve query of kits before nameResolution, and none of the current ones', () => {
    expect(Object.keys(retired)).toContain(
      'sha256:ad437487afd1f6edcfce77d5f27e74f6b24688e2951d1430b6344df404ef8d96',
    );
    const current = json(KIT_PERSISTED_DOCUMENTS_PATH);
    for (const id of Object.keys(retired)) expect(current[id]).toBeUndefined();
  });

  it.each(Object.entries(retired))(
    '%s is accepted by the product router and valid against the API schema',
    (id, body) => {
      expect((persistedOperations(loadConfig({})).manifest as Map<string, string>).get(id)).toBe(body);
      expect(validate(API, parse(body)).map((e) => e.message)).toEqual([]);
    },
  );
});
