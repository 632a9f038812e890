/**
 * OpenAPI description of the bridge read API under `/api` (`src/rest/bridge/`): the active deployment's coins,
 * its configuration and the signed proof of reserves. Shapes follow `src/bridge/present.ts` and `report.ts`;
 * see docs/bridge.md (how a client verifies the signature).
 */
import { ATTESTATION_ALGORITHM } from '../../bridge/attestation.ts';
import { NETWORKS } from '../../bridge/model.ts';
import { REPORT_SCHEMA } from '../../bridge/report.ts';
import { jsonResponse, object, operation, ref, SECURITY, str } from './components.ts';
import type { Json, Paths } from './components.ts';

const nStr = { type: ['string', 'null'] };
const int = { type: 'integer', minimum: 0 };
const amount = { type: 'string', pattern: '^[0-9]+$', description: 'Base units, as a decimal string' };
const chainRef = object({ id: str, name: str });
const wrapped = object({ ticker: str, name: str, decimals: int, chain: str, mint: str });
const network = { type: 'string', enum: [...NETWORKS] };

const LANE_FIELDS: Record<string, Json> = {
  id: str,
  direction: { type: 'string', enum: ['wrap', 'unwrap'] },
  from: { ...str, description: 'Chain id' },
  to: { ...str, description: 'Chain id' },
  status: { type: 'string', enum: ['active', 'paused'] },
  paused: { type: 'boolean' },
  pausedReason: nStr,
  confirmations: int,
  minAmount: amount,
  maxAmount: amount,
  fees: object({ fixed: amount, percent: { type: 'number', minimum: 0 } }),
};

export const bridgeSchemas: Record<string, Json> = {
  BridgeLane: { ...object(LANE_FIELDS), description: 'One direction of one coin and its terms' },
  ReserveReport: {
    ...object({
      schema: { const: REPORT_SCHEMA },
      network: str,
      deploymentVersion: str,
      source: { type: 'string', enum: ['recorded', 'live'] },
      generatedAt: { type: 'string', format: 'date-time' },
      signer: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      assets: {
        type: 'array',
        items: object({
          ticker: str,
          decimals: int,
          reserves: object({
            chain: str,
            total: amount,
            addresses: {
              type: 'array',
              items: object({ address: str, balance: amount, height: int, time: str }),
            },
          }),
          liabilities: object({ chain: str, ticker: str, mint: str, supply: amount, slot: int, time: str }),
          ratio: {
            type: ['string', 'null'],
            pattern: '^[0-9]+\\.[0-9]+$',
            description: 'reserves / liabilities, rounded down; null when liabilities are 0',
          },
        }),
      },
    }),
    description:
      'What is signed: its canonical JSON (docs/bridge.md) is the message of the ed25519 signature',
  },
};

const cached = {
  ETag: { description: 'Strong validator: send it as If-None-Match', schema: str },
  'Cache-Control': { description: 'public, max-age=<seconds>', schema: str },
};
const notModified = { 304: { description: 'Unchanged since the ETag named in If-None-Match' } };
const tags = ['bridge'];

export const bridgePaths: Paths = {
  '/api/coins': {
    get: operation({
      operationId: 'bridgeCoins',
      summary: 'Coins of the active deployment with their wrapped tokens and lane terms',
      description: 'Cache-Control max-age 300.',
      tags,
      security: SECURITY.public,
      responses: {
        200: jsonResponse(
          'The coins',
          object({
            network,
            version: str,
            coins: {
              type: 'array',
              items: object({
                ticker: str,
                name: str,
                decimals: int,
                nativeChain: chainRef,
                wrapped: object({ ticker: str, name: str, decimals: int, chain: chainRef, mint: str }),
                paused: { type: 'boolean', description: 'Every lane of the coin is paused' },
                lanes: { type: 'array', items: ref('BridgeLane') },
              }),
            },
          }),
          cached,
        ),
        ...notModified,
      },
      errors: {},
    }),
  },
  '/api/config': {
    get: operation({
      operationId: 'bridgeConfig',
      summary: 'The whole active deployment and the key that attests its reserves',
      description: 'Cache-Control max-age 60.',
      tags,
      security: SECURITY.public,
      responses: {
        200: jsonResponse(
          'The deployment',
          object({
            network,
            version: str,
            label: str,
            chains: {
              type: 'array',
              items: object({ id: str, kind: { enum: ['utxo', 'solana'] }, name: str }),
            },
            assets: {
              type: 'array',
              items: object({
                ticker: str,
                name: str,
                decimals: int,
                nativeChain: str,
                wrapped,
                reserveAddresses: { type: 'array', items: str },
              }),
            },
            lanes: {
              type: 'array',
              items: {
                type: 'object',
                allOf: [ref('BridgeLane')],
                properties: { asset: str, depositAddress: nStr },
                required: ['asset', 'depositAddress'],
              },
            },
            attestation: object({
              algorithm: { const: ATTESTATION_ALGORITHM },
              publicKey: { ...nStr, description: 'Hex ed25519 public key; null until one is known' },
              pinned: { type: 'boolean', description: 'The key is fixed by the deployment file' },
              schema: { const: REPORT_SCHEMA },
            }),
            proofOfReserves: object({ path: str, staleAfterSeconds: int, ratioDecimals: int }),
          }),
          cached,
        ),
        ...notModified,
      },
      errors: {},
    }),
  },
  '/api/proof-of-reserves': {
    get: operation({
      operationId: 'proofOfReserves',
      summary: 'The latest signed proof of reserves',
      description:
        'Cache-Control max-age 60. stale is true once the oldest figure is older than staleAfterSeconds.',
      tags,
      security: SECURITY.public,
      responses: {
        200: jsonResponse(
          'The report and its signature',
          object({
            network,
            snapshotId: { type: 'integer', minimum: 1 },
            stale: { type: 'boolean' },
            ageSeconds: int,
            dataAsOf: { type: 'string', format: 'date-time' },
            staleAfterSeconds: int,
            report: ref('ReserveReport'),
            attestation: object({
              algorithm: { const: ATTESTATION_ALGORITHM },
              publicKey: { type: 'string', pattern: '^[0-9a-f]{64}$' },
              signature: { type: 'string', pattern: '^[0-9a-f]{128}$' },
            }),
          }),
          cached,
        ),
        ...notModified,
      },
      errors: { 404: 'NO_SNAPSHOT: no snapshot of the deployment has been taken yet' },
    }),
  },
};
