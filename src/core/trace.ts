/**
 * Spans, through the OpenTelemetry API alone (`@opentelemetry/api`): what the router, the sources and the store call.
 * Off (the default), {@link inSpan} is a plain call: no span object, no context switch. A process turns it on when the
 * operator configured an OTLP endpoint (`src/start/tracing.ts` registers the SDK, then calls {@link enableTracing}).
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span } from '@opentelemetry/api';

export { SpanKind };
export type { Attributes, Span };

let enabled = false;
const tracer = () => trace.getTracer('coinwallet');

/** Called once the SDK is registered: spans from now on. */
export function enableTracing(on = true): void {
  enabled = on;
}

export function tracingEnabled(): boolean {
  return enabled;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent: default the active context. */
  parent?: Context;
  /** Only inside a traced request: no span when there is no active one (background work stays untraced). */
  childOnly?: boolean;
}

/**
 * Runs `fn` in a span named `name`, active for everything `fn` starts; the span ends when `fn` settles and records a
 * thrown error (status ERROR, the exception as an event). With tracing off, `fn` runs alone (given no span).
 */
export function inSpan<T>(
  name: string,
  opts: SpanOptions,
  fn: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!enabled) return fn(null);
  const parent = opts.parent ?? context.active();
  if (opts.childOnly && trace.getSpan(parent) === undefined) return fn(null);
  return tracer().startActiveSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, ...(opts.attributes ? { attributes: opts.attributes } : {}) },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        failed(span, err);
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Marks `span` failed with `err` (status ERROR, the exception recorded). */
function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/** Marks `span` failed with a message (an answer that is an error, not a throw). */
export function failedWith(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Writes the active trace context into outgoing `headers` (W3C `traceparent`, `tracestate`). */
export function injectTraceContext(headers: Record<string, string>): void {
  if (enabled) propagation.inject(context.active(), headers);
}

/** The trace context an incoming request carries (`traceparent`), as a parent for its server span. */
export function extractTraceContext(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Context {
  return propagation.extract(context.active(), headers);
}

/** Starts a span that the caller ends (an HTTP request's, from one hook to another); null when tracing is off. */
export function startSpan(name: string, opts: SpanOptions): Span | null {
  if (!enabled) return null;
  return tracer().startSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, ...(opts.attributes ? { attributes: opts.attributes } : {}) },
    opts.parent ?? context.active(),
  );
}

/** Runs `fn` with `span` active (its callbacks and promises inherit it). */
export function withSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}
