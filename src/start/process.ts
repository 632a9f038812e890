/**
 * What every process of the product does the same way, the embedded product and each scale-out part alike: one pino
 * for Fastify and the domain, listening before the warm-up (so `/healthz` answers 503 until it is done), and closing
 * what it opened in the reverse order.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { redactUrl } from '../access/request-key.ts';
import type { AppConfig } from '../config.ts';
import { createPino, loggerOf, silentLogger } from '../core/log.ts';
import type { Logger } from '../core/log.ts';
import type { DemoProgress } from '../market/demo.ts';

export interface ProcessIo {
  /** Where the domain logs; default the process's pino (nothing at `LOG_LEVEL=silent`). */
  log?: Logger;
  /** The demo generator's progress (the command line draws it). */
  progress?: DemoProgress;
}

export class ProcessRun {
  readonly log: Logger;
  /**
   * Fastify's logger: the process's pino, at `warn` when `LOG_LEVEL` is `info` (no line per request), with request
   * URLs redacted (API keys may travel in query strings); null at `LOG_LEVEL=silent`.
   */
  readonly fastifyLogger: FastifyBaseLogger | null;
  private readonly closers: (() => Promise<void> | void)[] = [];
  private ready = false;

  constructor(
    private readonly cfg: Pick<AppConfig, 'logLevel' | 'host' | 'port'>,
    io: ProcessIo,
  ) {
    const root = cfg.logLevel === 'silent' ? null : createPino(cfg.logLevel);
    this.log = io.log ?? (root ? loggerOf(root) : silentLogger);
    this.fastifyLogger =
      root?.child(
        {},
        {
          level: cfg.logLevel === 'info' ? 'warn' : cfg.logLevel,
          serializers: {
            req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url) }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            err: pino.stdSerializers.err,
          },
        },
      ) ?? null;
  }

  /** True once the warm-up has finished. */
  get isReady(): boolean {
    return this.ready;
  }

  /** Registers what {@link close} undoes; undone last in, first out. */
  defer(close: () => Promise<void> | void): void {
    this.closers.push(close);
  }

  /** Listens on the configured host and port (port 0: any free one); returns the base URL. */
  async listen(app: FastifyInstance): Promise<string> {
    this.defer(() => app.close());
    await app.listen({ port: this.cfg.port, host: this.cfg.host });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : this.cfg.port;
    return `http://${this.cfg.host}:${port}`;
  }

  /** Runs the warm-up in the background: ready once it resolves; a failure is logged (and the promise rejects). */
  warmUp(work: () => Promise<void>): Promise<void> {
    const done = work().then(() => {
      this.ready = true;
    });
    done.catch((err: unknown) =>
      this.log.error('start-up failed', { error: err instanceof Error ? err.message : String(err) }),
    );
    return done;
  }

  async close(): Promise<void> {
    for (let c = this.closers.pop(); c; c = this.closers.pop()) await c();
  }
}
