/**
 * Tracing's configuration, from the OpenTelemetry SDK's standard variables, so that an operator's usual settings work
 * unchanged. Off unless an OTLP endpoint is given: the product sends no span anywhere the operator did not name.
 *
 * - `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` appended): an
 *   `http(s)://` URL of an OTLP/HTTP receiver (the OpenTelemetry Collector, Jaeger, Tempo…).
 * - `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf` (default) or `http/json`
 *   (`grpc` is not supported: put a Collector in between).
 * - `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`: off whatever else is set.
 * - `OTEL_SERVICE_NAME` (default `coinwallet`, or `coinwallet-router`, `coinwallet-subgraph-markets`… for a scale-out
 *   part), `OTEL_RESOURCE_ATTRIBUTES`.
 * - `OTEL_TRACES_SAMPLER` (`parentbased_always_on` default, `always_on`, `always_off`, `traceidratio`,
 *   `parentbased_always_off`, `parentbased_traceidratio`) with `OTEL_TRACES_SAMPLER_ARG` (the ratio, default 1).
 * - `OTEL_BSP_SCHEDULE_DELAY` (ms between exports, default 5,000); `OTEL_EXPORTER_OTLP_HEADERS`, `…_TIMEOUT` and
 *   `…_COMPRESSION` are read by the exporter itself.
 */
import { ConfigError } from './config-error.ts';

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export interface TracingConfig {
  /** The OTLP/HTTP traces URL spans are POSTed to. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** `OTEL_SERVICE_NAME`; unset: `coinwallet` for the embedded product, `coinwallet-<part>` for a scale-out part. */
  serviceName: string | undefined;
  sampler: (typeof SAMPLERS)[number];
  /** The sampled fraction of root traces, for the ratio samplers. */
  ratio: number;
  scheduleDelayMs: number;
}

export function tracingConfig(env: NodeJS.ProcessEnv): TracingConfig | undefined {
  const get = (name: string) => env[name]?.trim() || undefined;
  if (get('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const exporter = get('OTEL_TRACES_EXPORTER') ?? 'otlp';
  if (exporter === 'none') return undefined;
  if (exporter !== 'otlp') throw new ConfigError('OTEL_TRACES_EXPORTER must be otlp or none');
  const specific = get('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const general = get('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (specific === undefined && general === undefined) return undefined;
  const name = specific !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const url = specific ?? `${(general as string).replace(/\/+$/, '')}/v1/traces`;
  if (!/^https?:\/\/[^/\s]+/i.test(url) || !URL.canParse(url))
    throw new ConfigError(`${name} must be an http:// or https:// URL of an OTLP/HTTP receiver`);
  const protocolVar = get('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = get(protocolVar) ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new ConfigError(
      `${protocolVar} must be http/protobuf or http/json (for grpc, put a Collector in between)`,
    );
  const sampler = get('OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  if (!(SAMPLERS as readonly string[]).includes(sampler))
    throw new ConfigError(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}`);
  const arg = get('OTEL_TRACES_SAMPLER_ARG');
  const ratio = arg === undefined ? 1 : Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  const delay = get('OTEL_BSP_SCHEDULE_DELAY');
  const scheduleDelayMs = delay === undefined ? 5_000 : Number(delay);
  if (!Number.isInteger(scheduleDelayMs) || scheduleDelayMs < 1 || scheduleDelayMs > 600_000)
    throw new ConfigError('OTEL_BSP_SCHEDULE_DELAY must be an integer from 1 to 600000 (ms)');
  return {
    url,
    protocol,
    serviceName: get('OTEL_SERVICE_NAME'),
    sampler: sampler as TracingConfig['sampler'],
    ratio,
    scheduleDelayMs,
  };
}
