/**
 * What every process does alike (src/start/process.ts): the probes' transitions (starting → ready → draining), a
 * shutdown that finishes the requests in flight and refuses new connections, bounded by SHUTDOWN_TIMEOUT_MS, and the
 * closers undone last in, first out.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { noteRequest } from '../../src/core/request-notes.ts';
import { ProcessRun } from '../../src/start/process.ts';
import { createHttpHost } from '../../src/server/host.ts';

const CFG = { logLevel: 'silent', host: '127.0.0.1', port: 0 } as const;

interface Started {
  run: ProcessRun;
  app: FastifyInstance;
  url: string;
  /** Resolves once the slow route has received a request; `release()` lets it answer. */
  entered: Promise<void>;
  release: () => void;
  closed: string[];
}

let started: Started | null = null;
/** What the processes logged at info (the access lines). */
const lines: Record<string, unknown>[] = [];
afterEach(async () => {
  started?.release();
  await started?.run.close();
  started = null;
});

async function start(
  opts: { shutdownTimeoutMs?: number; deps?: Record<string, boolean> } = {},
): Promise<Started> {
  const run = new ProcessRun(
    { ...CFG, ...(opts.shutdownTimeoutMs ? { shutdownTimeoutMs: opts.shutdownTimeoutMs } : {}) },
    { log: { info: (msg, data) => lines.push({ msg, ...data }), warn() {}, error() {} } },
    'test',
  );
  const closed: string[] = [];
  run.defer(() => void closed.push('store'));
  run.defer(() => void closed.push('services'));
  // Every process serves through the one host (its request ids, error bodies).
  const app = await createHttpHost({ logging: run.fastifyOptions });
  let release = (): void => {};
  let enter = (): void => {};
  const entered = new Promise<void>((r) => (enter = r));
  const gate = new Promise<void>((r) => (release = r));
  // Stands in for a transport that checked a key (REST's access hook, the router's mount).
  app.get('/keyed', async (req) => {
    noteRequest(req.raw, { keyId: '5f0c2a9e-1b7d-4c3e-9a51-0d2e8f6b7c11', refusal: 'RATE_LIMITED' });
    return {};
  });
  app.get('/slow', async () => {
    enter();
    await gate;
    return { done: true };
  });
  run.instrument(app, opts.deps ? async () => opts.deps as Record<string, boolean> : undefined);
  const url = await run.listen(app);
  started = { run, app, url, entered, release, closed };
  return started;
}

const status = async (url: string): Promise<{ code: number; body: unknown }> => {
  const r = await fetch(url);
  return { code: r.status, body: await r.json() };
};

describe('a process of the product: probes and shutdown', () => {
  it('is live at once, ready only after its warm-up, and not ready while a dependency is missing', async () => {
    const s = await start();
    expect(await status(`${s.url}/livez`)).toEqual({ code: 200, body: { status: 'live', part: 'test' } });
    expect(await status(`${s.url}/readyz`)).toEqual({
      code: 503,
      body: { status: 'starting', part: 'test' },
    });
    await s.run.warmUp(async () => {});
    expect(await status(`${s.url}/readyz`)).toEqual({ code: 200, body: { status: 'ready', part: 'test' } });

    await s.run.close();
    started = null;
    const waiting = await start({ deps: { markets: true, identity: false } });
    await waiting.run.warmUp(async () => {});
    expect(await status(`${waiting.url}/readyz`)).toEqual({
      code: 503,
      body: { status: 'waiting', part: 'test', missing: ['identity'] },
    });
  });

  it('collects the garbage its warm-up left before ready, unless the warm-up says it left none (a restart from the cache)', async () => {
    const s = await start();
    const fullCollections = async (warmed: { garbage: boolean } | void): Promise<number> => {
      let n = 0;
      const seen = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const { detail } = e as PerformanceEntry & { detail?: { kind: number } };
          if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) n++;
        }
      });
      seen.observe({ entryTypes: ['gc'] });
      await s.run.warmUp(async () => warmed);
      await new Promise((r) => setTimeout(r, 100));
      seen.disconnect();
      return n;
    };
    expect(await fullCollections({ garbage: false })).toBe(0);
    expect(s.run.isReady).toBe(true);
    expect(await fullCollections({ garbage: true })).toBeGreaterThan(0);
    expect(await fullCollections()).toBeGreaterThan(0);
  });

  it('on shutdown: not ready at once, no new connection, the request in flight answered, then the closers last in first out', async () => {
    const s = await start();
    await s.run.warmUp(async () => {});
    const inFlight = fetch(`${s.url}/slow`).then(async (r) => ({ code: r.status, body: await r.json() }));
    await s.entered;
    const t0 = Date.now();
    const closing = s.run.close();
    expect(s.run.state).toBe('draining');
    expect(s.run.isReady).toBe(false);
    // The listener is closed: a new connection is refused while the request above is still being served.
    await expect(fetch(`${s.url}/livez`)).rejects.toThrow();
    expect(s.closed).toEqual([]);
    s.release();
    expect(await inFlight).toEqual({ code: 200, body: { done: true } });
    await closing;
    // Done once the request is: its kept-alive connection closed with the answer, not after SHUTDOWN_TIMEOUT_MS.
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(s.closed).toEqual(['services', 'store']);
    started = null;
  });

  it('waits at most SHUTDOWN_TIMEOUT_MS for a request that does not finish, then closes its connection', async () => {
    const s = await start({ shutdownTimeoutMs: 200 });
    const stuck = fetch(`${s.url}/slow`).then(
      (r) => r.status,
      () => 'connection closed',
    );
    await s.entered;
    const t0 = Date.now();
    await s.run.close();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(await stuck).toBe('connection closed');
    expect(s.closed).toEqual(['services', 'store']);
    started = null;
  });
});

describe('request ids and access lines', () => {
  it('keeps a valid x-request-id, replaces anything else, echoes it, and logs one line per request', async () => {
    const s = await start();
    await s.run.warmUp(async () => {});
    lines.length = 0;
    const id = async (given?: string) =>
      (
        await fetch(`${s.url}/livez?x_sp_api_key=secret`, given ? { headers: { 'x-request-id': given } } : {})
      ).headers.get('x-request-id');
    expect(await id('trace-42.a:b_c-d')).toBe('trace-42.a:b_c-d');
    expect(await id()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await id('has space')).not.toBe('has space');
    expect(await id('x'.repeat(129))).toHaveLength(36);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      reqId: 'trace-42.a:b_c-d',
      method: 'GET',
      route: '/livez',
      status: 200,
    });
    expect(typeof lines[0]?.['ms']).toBe('number');
    // The route's pattern, never the query string (where a key may travel).
    expect(JSON.stringify(lines)).not.toContain('secret');
    expect(lines[0]).not.toHaveProperty('key');
    // A key the transport noted: its id's first 8 characters.
    await fetch(`${s.url}/keyed`);
    expect(lines[4]).toMatchObject({
      route: '/keyed',
      status: 200,
      key: '5f0c2a9e',
      refused: 'RATE_LIMITED',
    });
  });
});

describe('their settings', () => {
  it('SHUTDOWN_TIMEOUT_MS (default 10,000) and READY_REQUIRES_SUBGRAPHS (default true) refuse what they cannot use', () => {
    expect(loadConfig({})).toMatchObject({ shutdownTimeoutMs: 10_000, readyRequiresSubgraphs: true });
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: '0', READY_REQUIRES_SUBGRAPHS: 'false' })).toMatchObject({
      shutdownTimeoutMs: 0,
      readyRequiresSubgraphs: false,
    });
    expect(() => loadConfig({ READY_REQUIRES_SUBGRAPHS: 'maybe' })).toThrow(
      'READY_REQUIRES_SUBGRAPHS must be true or false',
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be json or pretty');
  });
});
