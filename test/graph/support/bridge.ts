/**
 * Shared by the bridge subgraph tests (`bridge.test.ts`, `bridge-variants.test.ts`): the subgraph executed in process
 * beside the REST bridge API (Fastify's `inject`) on the same store and fake clock, and a client's own check of the
 * canonical JSON and its ed25519 signature.
 */
import { createPublicKey, verify } from 'node:crypto';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { expect } from 'vitest';
import { keyFromSeedHex } from '../../../src/bridge/attestation.ts';
import type { Deployment } from '../../../src/bridge/model.ts';
import { BridgeService } from '../../../src/bridge/service.ts';
import { bridgeApi } from '../../../src/rest/bridge/index.ts';
import { registerErrorHandling } from '../../../src/server/host/render.ts';
import type { Db } from '../../../src/store/db.ts';
import type { BridgeContext } from '../../../subgraphs/bridge/context.ts';
import type { BridgeSubgraph } from '../../../subgraphs/bridge/index.ts';

// The CommonJS build of graphql: the one @apollo/subgraph builds the schema with. (Vite resolves a plain import to
// graphql's .mjs build, a second instance whose `graphql()` refuses the schema; Node itself loads the CJS one.)
export const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

export const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z, the time of the recorded chain data
export const STALE_AFTER_MS = 3_600_000;
export const KEY = keyFromSeedHex('22'.repeat(32));
export type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The REST bridge API over `db`, as `test/bridge/api.test.ts` mounts it. */
export async function restFor(
  db: Db,
  deployment: Deployment,
  clock: { now: number },
): Promise<FastifyInstance> {
  const app = Fastify();
  registerErrorHandling(app);
  await app.register(bridgeApi, {
    prefix: '/api',
    bridge: new BridgeService(db, { deployment, now: () => clock.now, staleAfterMs: STALE_AFTER_MS }),
  });
  await app.ready();
  return app;
}

export async function rest(app: FastifyInstance, url: string): Promise<{ status: number; body: Body }> {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: JSON.parse(res.body) as Body };
}

export async function run(sg: BridgeSubgraph, source: string, ctx: BridgeContext = sg.contextFor()) {
  return graphql({ schema: sg.schema, source, contextValue: ctx }) as Promise<ExecutionResult>;
}

export async function ok(sg: BridgeSubgraph, source: string): Promise<Body> {
  const r = await run(sg, source);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as Body;
}

/** The canonical JSON exactly as docs/bridge.md states it, written independently of src/bridge/canonical.ts. */
export function clientCanonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(clientCanonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${clientCanonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** What a client of the graph does: node:crypto ed25519 over the UTF-8 bytes of `attestation.canonical`. */
export function clientVerifies(publicKeyHex: string, canonical: string, signatureHex: string): boolean {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') },
    format: 'jwk',
  });
  return verify(null, Buffer.from(canonical, 'utf8'), key, Buffer.from(signatureHex, 'hex'));
}

export const PROOF = `{ bridge { proofOfReserves {
  snapshotId stale ageSeconds staleAfterSeconds dataAsOf
  report {
    schema network deploymentVersion source generatedAt signer
    assets {
      ticker decimals coin { id } ratio
      reserves { chain total addresses { address balance height time } }
      liabilities { chain ticker mint supply slot time }
    }
  }
  attestation { algorithm publicKey signature canonical }
} } }`;
