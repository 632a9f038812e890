import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, createPino, logFormat, loggerOf, prettyStream } from '../../src/core/log.ts';
import type { LogLevel, Logger } from '../../src/core/log.ts';

function capture(level: LogLevel): { lines: () => Record<string, unknown>[]; log: Logger } {
  let text = '';
  const dest = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  const log = createLogger(level, dest);
  const lines = () =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, log };
}

describe('the one logger (pino underneath)', () => {
  it('writes one JSON object a line: level, ISO time, message and the data as fields', () => {
    const { lines, log } = capture('info');
    log.warn('redis error', { error: 'ECONNREFUSED' });
    log.info('ready');
    const [warn, info] = lines();
    expect(warn).toMatchObject({ level: 40, msg: 'redis error', error: 'ECONNREFUSED' });
    expect(warn?.['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(info).toMatchObject({ level: 30, msg: 'ready' });
  });

  it('leaves out what is below its level; silent writes nothing', () => {
    const warnOnly = capture('warn');
    warnOnly.log.info('dropped');
    warnOnly.log.error('kept', { n: 1 });
    expect(warnOnly.lines().map((l) => l['msg'])).toEqual(['kept']);
    const silent = capture('silent');
    silent.log.error('nothing');
    expect(silent.lines()).toEqual([]);
  });

  it('is pretty on a terminal (or with LOG_FORMAT=pretty), JSON anywhere else (or with LOG_FORMAT=json)', () => {
    expect(logFormat(undefined, true)).toBe('pretty');
    expect(logFormat(undefined, false)).toBe('json');
    expect(logFormat(undefined, undefined)).toBe('json');
    expect(logFormat('json', true)).toBe('json');
    expect(logFormat('pretty', false)).toBe('pretty');
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const p = createPino('info', prettyStream(sink));
    loggerOf(p).warn('redis error', { error: 'ECONNREFUSED' });
    p.flush();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: redis error\s*\n\s+error: "ECONNREFUSED"\n$/);
  });
});
