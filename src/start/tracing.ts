/**
 * OpenTelemetry's SDK for one process, when the operator configured an OTLP endpoint (`src/tracing-config.ts`): spans
 * batched and exported over OTLP/HTTP, W3C trace context read from and written to HTTP headers, the active span
 * carried through async calls (AsyncLocalStorage). Resource: `service.name`, `coinwallet.part`, and what
 * `OTEL_RESOURCE_ATTRIBUTES` adds; no resource detector that asks the network (cloud metadata endpoints).
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { envDetector, detectResources, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { Sampler } from '@opentelemetry/sdk-trace';
import { enableTracing } from '../core/trace.ts';
import type { TracingConfig } from '../tracing-config.ts';

function samplerOf(cfg: TracingConfig): Sampler {
  const root = cfg.sampler.endsWith('always_on')
    ? new AlwaysOnSampler()
    : cfg.sampler.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(cfg.ratio);
  return cfg.sampler.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/** The service name of `part` when `OTEL_SERVICE_NAME` does not say: `coinwallet` or `coinwallet-<part>`. */
export const serviceNameOf = (part: string): string =>
  part === 'product' ? 'coinwallet' : `coinwallet-${part.replace(/[^A-Za-z0-9._-]/g, '-')}`;

/**
 * Registers the SDK for this process and turns spans on; returns what flushes and stops it (the process's last
 * closer). A second process part in the same Node process (tests) shares the first one's registration.
 */
export function startTracing(cfg: TracingConfig, part: string): () => Promise<void> {
  const exporter =
    cfg.protocol === 'http/json'
      ? new JsonExporter({ url: cfg.url })
      : new ProtobufExporter({ url: cfg.url });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': cfg.serviceName ?? serviceNameOf(part),
      'coinwallet.part': part,
    }).merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerOf(cfg),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: cfg.scheduleDelayMs })],
  });
  const registered = trace.setGlobalTracerProvider(provider);
  if (registered) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  enableTracing(true);
  return async () => {
    await provider.shutdown();
    if (registered) {
      enableTracing(false);
      trace.disable();
      context.disable();
      propagation.disable();
    }
  };
}
