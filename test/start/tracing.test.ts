/**
 * Tracing in one process (`src/start/tracing.ts`, `src/core/trace.ts`, `src/store/traced.ts`) against an OTLP/HTTP
 * receiver on loopback: the configuration read from the standard variables, a request's server span as the child of
 * the caller's `traceparent`, spans of what it runs beneath it, store statements only inside a request, export in
 * both OTLP/HTTP encodings. The whole graph over HTTP subgraphs is traced in `test/e2e/graph-scale-out.e2e.ts`.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { inSpan, injectTraceContext, tracingEnabled } from '../../src/core/trace.ts';
import { ProcessRun } from '../../src/start/process.ts';
import { createHttpHost } from '../../src/server/host.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import type { Db } from '../../src/store/db.ts';
import { tracingConfig } from '../../src/tracing-config.ts';
import { SERVER, startOtlpReceiver } from '../support/otlp.ts';
import type { OtlpReceiver } from '../support/otlp.ts';

let otlp: OtlpReceiver;
let db: Db;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  db = await openMemoryDb();
});
afterAll(async () => {
  await db.close();
  await otlp.close();
});

describe('tracing configuration (the OpenTelemetry SDK variables)', () => {
  it('is off unless an OTLP endpoint is given, and off when disabled whatever else is set', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' };
    expect(tracingConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracingConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(tracingConfig(endpoint)).toEqual({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: undefined,
      sampler: 'parentbased_always_on',
      ratio: 1,
      scheduleDelayMs: 5_000,
    });
    // The signal's own endpoint is used as given, and wins.
    expect(
      tracingConfig({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/otlp' })?.url,
    ).toBe('https://t.example/otlp');
    expect(
      tracingConfig({
        ...endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'cw-eu',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      }),
    ).toMatchObject({
      protocol: 'http/json',
      serviceName: 'cw-eu',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
      scheduleDelayMs: 200,
    });
  });

  it('refuses what it cannot use, naming the variable and what it accepts', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    const cases: [Record<string, string>, string][] = [
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http://'],
      [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://c:4317' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be'],
      [
        { ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
        'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf',
      ],
      [{ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER must be otlp or none'],
      [{ ...endpoint, OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER must be one of always_on'],
      [{ ...endpoint, OTEL_TRACES_SAMPLER_ARG: '2' }, 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1'],
      [{ ...endpoint, OTEL_BSP_SCHEDULE_DELAY: 'soon' }, 'OTEL_BSP_SCHEDULE_DELAY must be an integer'],
    ];
    for (const [env, message] of cases) expect(() => loadConfig(env), message).toThrow(message);
  });
});

/** A process with tracing on, one route that runs a span and a store statement; returns its URL and its run. */
async function tracedProcess(protocol: 'http/json' | 'http/protobuf') {
  const tracing = tracingConfig({
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_BSP_SCHEDULE_DELAY: '50',
  });
  const run = new ProcessRun(
    { logLevel: 'silent', host: '127.0.0.1', port: 0, tracing },
    {},
    'subgraph:markets',
  );
  // Every process serves through the one host (its request ids, error bodies).
  const app = await createHttpHost({ logging: run.fastifyOptions });
  const forwarded: Record<string, string> = {};
  app.post('/work', async () => {
    await inSpan('work', {}, async () => {
      await db.query('SELECT 1 AS one');
      injectTraceContext(forwarded);
    });
    return { ok: true };
  });
  run.instrument(app);
  const url = await run.listen(app);
  await run.warmUp(async () => {});
  return { run, url, forwarded };
}

describe('tracing in a process', () => {
  it('a request: its server span the child of the traceparent sent, the work and the store statement beneath it', async () => {
    const { run, url, forwarded } = await tracedProcess('http/json');
    expect(tracingEnabled()).toBe(true);
    const traceId = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    // Outside any request: a store statement makes no span (background work is not traced).
    await db.query('SELECT 2 AS background');
    const r = await fetch(`${url}/work?secret=k`, {
      method: 'POST',
      headers: { traceparent: `00-${traceId}-${parent}-01`, 'content-type': 'application/json' },
      // A body of several chunks: the handler still runs in the request's span.
      body: JSON.stringify({ pad: 'x'.repeat(200_000) }),
    });
    expect(r.status).toBe(200);
    const spans = await otlp.trace(traceId, (s) => s.length >= 3);
    const server = spans.find((s) => s.kind === SERVER);
    expect(server).toMatchObject({
      service: 'coinwallet-subgraph-markets',
      name: 'POST /work',
      parentSpanId: parent,
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/work',
        'url.path': '/work',
        'http.response.status_code': 200,
        'coinwallet.request_id': r.headers.get('x-request-id'),
      },
    });
    const work = spans.find((s) => s.name === 'work');
    expect(work?.parentSpanId).toBe(server?.spanId);
    const query = spans.find((s) => s.name === 'db.query SELECT');
    expect(query).toMatchObject({
      parentSpanId: work?.spanId,
      attributes: { 'db.system.name': 'pglite', 'db.operation.name': 'SELECT' },
    });
    // What a call made from inside the work carries on: the same trace, the work's span as parent.
    expect(forwarded['traceparent']).toBe(`00-${traceId}-${work?.spanId}-01`);
    expect(JSON.stringify(otlp.spans)).not.toContain('secret');
    expect(otlp.spans.filter((s) => s.name.startsWith('db.query'))).toHaveLength(1);
    await run.close();
    expect(tracingEnabled()).toBe(false);
  });

  it('exports OTLP/protobuf by default (the SDK default protocol), flushed on shutdown', async () => {
    const { run, url } = await tracedProcess('http/protobuf');
    expect((await fetch(`${url}/work`, { method: 'POST' })).status).toBe(200);
    await run.close();
    expect(otlp.protobuf.length).toBeGreaterThan(0);
    expect(otlp.protobuf[0]?.contentType).toBe('application/x-protobuf');
    // Protobuf keeps strings as UTF-8: the span's name and the service are in the bytes.
    const bytes = Buffer.concat(otlp.protobuf.map((p) => p.body)).toString('latin1');
    expect(bytes).toContain('POST /work');
    expect(bytes).toContain('coinwallet-subgraph-markets');
  });
});
