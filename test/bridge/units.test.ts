import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AttestationKeyError,
  keyFromSeedHex,
  resolveAttestationKey,
  signReport,
  verifyReport,
} from '../../src/bridge/attestation.ts';
import { canonicalJson } from '../../src/bridge/canonical.ts';
import { RecordedChainData } from '../../src/bridge/chain-data.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import { ratio } from '../../src/bridge/report.ts';
import { bridgeCommand } from '../../src/cli/bridge.ts';
import { loadConfig } from '../../src/config.ts';
import { openDb } from '../../src/store/open.ts';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'bridge-unit-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order, no whitespace', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 'x' }, null], a: true, é: '"q"' })).toBe(
      '{"a":true,"b":[{"a":"x","z":1},null],"é":"\\"q\\""}',
    );
  });
  it('refuses what has no canonical form here', () => {
    expect(() => canonicalJson({ a: 0.5 })).toThrow(/safe integers/);
    expect(() => canonicalJson({ a: 2 ** 60 })).toThrow(/safe integers/);
    expect(() => canonicalJson({ a: undefined })).toThrow(/undefined/);
    expect(() => canonicalJson(new Date())).toThrow();
  });
});

describe('ratio', () => {
  it('is reserves / liabilities with 6 digits rounded down, null for no liabilities', () => {
    expect(ratio(1n, 1n)).toBe('1.000000');
    expect(ratio(2n, 3n)).toBe('0.666666');
    expect(ratio(0n, 5n)).toBe('0.000000');
    expect(ratio(123456789012345678901234567890n, 1n)).toBe('123456789012345678901234567890.000000');
    expect(ratio(5n, 0n)).toBeNull();
  });
});

describe('attestation keys', () => {
  const testnet = loadDeployment('testnet');

  it('signs and verifies; rejects malformed input', () => {
    const k = keyFromSeedHex('ab'.repeat(32));
    const sig = signReport({ a: '1' }, k);
    expect(verifyReport({ a: '1' }, sig, k.publicKey)).toBe(true);
    expect(verifyReport({ a: '2' }, sig, k.publicKey)).toBe(false);
    expect(verifyReport({ a: '1' }, 'zz', k.publicKey)).toBe(false);
    expect(() => keyFromSeedHex('abc')).toThrow(/BRIDGE_ATTESTATION_KEY must be a 32-byte/);
  });

  it('"from-secret" generates the embedded secret once (mode 0600) and reuses it', () => {
    const dataDir = tmp();
    const a = resolveAttestationKey(testnet, { dataDir });
    const path = join(dataDir, 'secrets', 'bridge-attestation-testnet');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(resolveAttestationKey(testnet, { dataDir }).publicKey).toBe(a.publicKey);
    expect(resolveAttestationKey(testnet, { dataDir, seedHex: '01'.repeat(32) }).publicKey).not.toBe(
      a.publicKey,
    );
  });

  it('never generates a key in scale-out mode or for a pinned deployment', () => {
    const dataDir = tmp();
    expect(() => resolveAttestationKey(testnet, { dataDir, scaleOut: true })).toThrow(AttestationKeyError);
    expect(() => resolveAttestationKey(loadDeployment('mainnet'), { dataDir })).toThrow(
      /pins attestation\.publicKey/,
    );
    expect(existsSync(join(dataDir, 'secrets'))).toBe(false);
  });
});

describe('RecordedChainData', () => {
  it('answers recorded addresses and mints, and errors on anything else', async () => {
    const rec = RecordedChainData.load('mainnet');
    const [b] = await rec.reserveBalances(['LJhn8WMpUDxHpTfCwi5UJXi7dKLs96Mydo']);
    expect(b).toEqual({
      address: 'LJhn8WMpUDxHpTfCwi5UJXi7dKLs96Mydo',
      balance: '841250000000',
      height: 1604211,
      time: '2026-01-01T00:00:00Z',
    });
    await expect(rec.reserveBalances(['LJhn8WMpUDxHpTfCwi5UJXi7dKLs96Mydo'], 5)).rejects.toThrow(
      /height 1604211/,
    );
    await expect(rec.reserveBalances(['npyK4QkJUoAyvG4JfFGSTMMaRPWcXHHzAU'])).rejects.toThrow(/no balance/);
    await expect(rec.wrappedSupply('CD9Dc7tXiQS5Zh9gEo3hdDcpxg9ZQRysy6WFN5RjuZ4z')).rejects.toThrow(
      /no supply/,
    );
  });
});

describe('coinwallet bridge snapshot', () => {
  it('takes a signed snapshot into the embedded store', async () => {
    const dataDir = tmp();
    const cfg = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => (out.push(s), true)) as typeof process.stdout.write;
    let code: number;
    try {
      code = await bridgeCommand(cfg, ['snapshot', '--network', 'testnet']);
    } finally {
      process.stdout.write = write;
    }
    expect(code).toBe(0);
    const summary = JSON.parse(out.join('')) as {
      network: string;
      source: string;
      assets: { ratio: string }[];
    };
    expect(summary).toMatchObject({ network: 'testnet', source: 'recorded' });
    expect(summary.assets[0]?.ratio).toBe('1.002034');
    const db = await openDb({ dataDir });
    try {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM bridge_snapshots');
      expect(rows[0]?.n).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('rejects usage errors and a mainnet run without the pinned key', async () => {
    const cfg = loadConfig({ DATA_DIR: tmp() });
    await expect(bridgeCommand(cfg, ['snap'])).rejects.toThrow(/usage: coinwallet bridge snapshot/);
    await expect(bridgeCommand(cfg, ['snapshot', '--network', 'regtest'])).rejects.toThrow(
      /--network must be/,
    );
    await expect(bridgeCommand(cfg, ['snapshot', '--network', 'mainnet'])).rejects.toThrow(
      /pins attestation\.publicKey/,
    );
  });
});
