/** The telemetry section: logs, Prometheus metrics and OpenTelemetry traces. */
import { ConfigError } from '../config-error.ts';
import { tracingConfig } from '../tracing-config.ts';
import type { TracingConfig } from '../tracing-config.ts';
import { int } from './read.ts';

const LOG_LEVELS = ['info', 'warn', 'error', 'silent'] as const;

export interface TelemetrySection {
  /** `LOG_LEVEL`: `info` (default), `warn`, `error` or `silent`. */
  logLevel: (typeof LOG_LEVELS)[number];
  /** `LOG_FORMAT`: `json` or `pretty`; unset: pretty on a terminal, JSON anywhere else. */
  logFormat: 'json' | 'pretty' | undefined;
  /**
   * `METRICS_PORT`: where this process serves Prometheus metrics (`GET /metrics`, on `HOST`, apart from the public
   * port so that only the operator's network reaches it); unset: no metrics; `0`: any free port.
   */
  metricsPort: number | undefined;
  /**
   * OpenTelemetry tracing, from the standard `OTEL_*` variables (`src/tracing-config.ts`, docs/operations.md): on when
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` is set; undefined (off) otherwise.
   */
  tracing: TracingConfig | undefined;
}

export function telemetrySection(env: NodeJS.ProcessEnv): TelemetrySection {
  const level = env.LOG_LEVEL ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new ConfigError('LOG_LEVEL must be info, warn, error or silent');
  return {
    logLevel: level as TelemetrySection['logLevel'],
    logFormat: logFormatOf(env.LOG_FORMAT),
    metricsPort: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0, 0, 65_535) : undefined,
    tracing: tracingConfig(env),
  };
}

function logFormatOf(v: string | undefined): 'json' | 'pretty' | undefined {
  if (v === undefined || v === '') return undefined;
  if (v === 'json' || v === 'pretty') return v;
  throw new ConfigError('LOG_FORMAT must be json or pretty');
}
