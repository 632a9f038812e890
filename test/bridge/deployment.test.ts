import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSolanaKey, isUtxoAddress } from '../../src/bridge/addresses.ts';
import { DEFAULT_DEPLOYMENT_DIR, loadDeployment, loadDeploymentFile } from '../../src/bridge/deployment.ts';
import { DeploymentError } from '../../src/bridge/model.ts';
import type { Deployment, Network, UtxoChain } from '../../src/bridge/model.ts';

const tmp = mkdtempSync(join(tmpdir(), 'bridge-deploy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function raw(network: Network): Json {
  return JSON.parse(readFileSync(join(DEFAULT_DEPLOYMENT_DIR, `${network}.json`), 'utf8')) as Json;
}

/** Writes a mutated copy of a shipped file and loads it; returns the error message (or fails). */
function brokenMessage(network: Network, mutate: (j: Json) => void): string {
  const j = raw(network);
  mutate(j);
  const path = join(tmp, `${network}.json`);
  writeFileSync(path, JSON.stringify(j));
  try {
    loadDeploymentFile(path);
  } catch (err) {
    expect(err).toBeInstanceOf(DeploymentError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be rejected');
}

describe('shipped deployments', () => {
  const testnet = loadDeployment('testnet');
  const mainnet = loadDeployment('mainnet');

  it('both load, each for its own network', () => {
    expect(testnet.network).toBe('testnet');
    expect(mainnet.network).toBe('mainnet');
    expect(testnet.source).toMatch(/testnet\.json$/);
  });

  it('differ for real: chains, addresses, confirmations, limits, fees, paused lanes, key', () => {
    const ids = (d: Deployment) => d.chains.map((c) => c.id);
    expect(ids(testnet)).toEqual(['luckycoin-testnet', 'dogecoin-testnet', 'solana-devnet']);
    expect(ids(mainnet)).toEqual(['luckycoin', 'solana']);
    expect(testnet.assets.map((a) => a.ticker)).toEqual(['LKY', 'DOGE']);
    expect(mainnet.assets.map((a) => a.ticker)).toEqual(['LKY']);
    const lky = (d: Deployment) => d.assets.find((a) => a.ticker === 'LKY');
    expect(lky(testnet)?.wrapped.mint).not.toBe(lky(mainnet)?.wrapped.mint);
    expect(lky(testnet)?.reserveAddresses).not.toEqual(lky(mainnet)?.reserveAddresses);
    const wrap = (d: Deployment) => d.lanes.find((l) => l.id === 'lky-wrap');
    expect(wrap(testnet)?.depositAddress).toMatch(/^n/); // testnet P2PKH 113
    expect(wrap(mainnet)?.depositAddress).toMatch(/^[KL]/); // mainnet P2PKH 47
    expect(wrap(testnet)?.confirmations).toBeLessThan(wrap(mainnet)?.confirmations ?? 0);
    expect(wrap(testnet)?.minAmount).not.toBe(wrap(mainnet)?.minAmount);
    expect(wrap(testnet)?.maxAmount).not.toBe(wrap(mainnet)?.maxAmount);
    expect(wrap(testnet)?.fees).not.toEqual(wrap(mainnet)?.fees);
    expect(testnet.lanes.filter((l) => l.status === 'paused').map((l) => l.id)).toEqual(['doge-unwrap']);
    expect(mainnet.lanes.filter((l) => l.status === 'paused')).toEqual([]);
    expect(testnet.attestation.publicKey).toBeNull(); // "from-secret"
    expect(mainnet.attestation.publicKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('every address is valid for its chain and network', () => {
    for (const d of [testnet, mainnet]) {
      for (const a of d.assets) {
        const chain = d.chains.find((c) => c.id === a.nativeChain) as UtxoChain;
        for (const addr of a.reserveAddresses) expect(isUtxoAddress(addr, chain)).toBe(true);
        expect(isSolanaKey(a.wrapped.mint)).toBe(true);
      }
    }
    const mainLky = mainnet.chains[0] as UtxoChain;
    expect(isUtxoAddress(testnet.assets[0]?.reserveAddresses[0] as string, mainLky)).toBe(false);
  });
});

describe('broken deployment files name the field', () => {
  const cases: [string, Network, (j: Json) => void, RegExp][] = [
    [
      'missing field',
      'mainnet',
      (j) => delete j.lanes[1].fees,
      /mainnet\.json: lanes\[1\]\.fees is required/,
    ],
    [
      'wrong type',
      'mainnet',
      (j) => (j.lanes[1].fees.percent = '0.25'),
      /mainnet\.json: lanes\[1\]\.fees\.percent must be a number from 0 to 100/,
    ],
    [
      'out of range',
      'testnet',
      (j) => (j.lanes[0].fees.percent = 101),
      /lanes\[0\]\.fees\.percent must be a number/,
    ],
    [
      'amount as a number',
      'testnet',
      (j) => (j.lanes[0].minAmount = 1e8),
      /lanes\[0\]\.minAmount must be an amount/,
    ],
    [
      'min above max',
      'testnet',
      (j) => (j.lanes[0].minAmount = '9' + j.lanes[0].maxAmount),
      /lanes\[0\]\.maxAmount/,
    ],
    [
      'unknown network',
      'testnet',
      (j) => (j.network = 'regtest'),
      /testnet\.json: network must be one of "testnet", "mainnet"/,
    ],
    [
      'testnet address in a mainnet file',
      'mainnet',
      (j) => (j.assets[0].reserveAddresses[1] = 'npyK4QkJUoAyvG4JfFGSTMMaRPWcXHHzAU'),
      /assets\[0\]\.reserveAddresses\[1\] must be a valid LKY address on luckycoin/,
    ],
    [
      'bad checksum',
      'testnet',
      (j) => (j.lanes[0].depositAddress = 'npyK4QkJUoAyvG4JfFGSTMMaRPWcXHHzAV'),
      /lanes\[0\]\.depositAddress must be a valid LKY address/,
    ],
    [
      'deposit address outside the reserves',
      'testnet',
      (j) => (j.lanes[0].depositAddress = j.assets[1].reserveAddresses[0]),
      /lanes\[0\]\.depositAddress must be one of the reserveAddresses of LKY/,
    ],
    [
      'testnet version bytes on mainnet',
      'mainnet',
      (j) => (j.chains[0].p2pkh = 113),
      /chains\[0\]\.p2pkh must be 47 for LKY on mainnet/,
    ],
    [
      'devnet on mainnet',
      'mainnet',
      (j) => (j.chains[1].cluster = 'devnet'),
      /chains\[1\]\.cluster must be one of "mainnet-beta"/,
    ],
    [
      'bad mint',
      'testnet',
      (j) => (j.assets[0].wrapped.mint = 'not-a-key'),
      /assets\[0\]\.wrapped\.mint must be a base58 Solana mint/,
    ],
    ['unknown field', 'testnet', (j) => (j.lanes[2].feez = {}), /lanes\[2\]\.feez is not a known field/],
    [
      'unknown asset',
      'testnet',
      (j) => (j.lanes[3].asset = 'BTC'),
      /lanes\[3\]\.asset must be the ticker of one of the assets/,
    ],
    [
      'paused without reason',
      'testnet',
      (j) => delete j.lanes[3].pausedReason,
      /lanes\[3\]\.pausedReason must be a non-empty string/,
    ],
    [
      'unpinned key on mainnet',
      'mainnet',
      (j) => (j.attestation.publicKey = 'from-secret'),
      /attestation\.publicKey must be pinned/,
    ],
    [
      'duplicate lane id',
      'testnet',
      (j) => (j.lanes[1].id = 'lky-wrap'),
      /lanes\[1\]\.id repeats the lane id "lky-wrap"/,
    ],
  ];
  it.each(cases)('%s', (_name, network, mutate, re) => {
    expect(brokenMessage(network, mutate)).toMatch(re);
  });

  it('a file whose network differs from its name, a missing file and bad JSON', () => {
    const j = raw('testnet');
    writeFileSync(join(tmp, 'mainnet.json'), JSON.stringify(j));
    expect(() => loadDeployment('mainnet', tmp)).toThrow(/network must be "mainnet" \(the file's name\)/);
    expect(() => loadDeployment('regtest' as Network, tmp)).toThrow(/testnet or mainnet/);
    expect(() => loadDeploymentFile(join(tmp, 'absent.json'))).toThrow(/absent\.json: cannot read/);
    writeFileSync(join(tmp, 'bad.json'), '{"network":');
    expect(() => loadDeploymentFile(join(tmp, 'bad.json'))).toThrow(/bad\.json: not valid JSON/);
  });
});
