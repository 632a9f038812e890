import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  createLogger,
  createPino,
  infoLineWriter,
  jsonString,
  LazyChildLogger,
  logFormat,
  loggerOf,
  prettyStream,
} from '../../src/core/log.ts';
import type { LogLevel, Logger } from '../../src/core/log.ts';
import { accessLineFields } from '../../src/start/access-line.ts';
import type { AccessLine } from '../../src/start/access-line.ts';

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

describe('the access line writer', () => {
  it("writes what pino's own serializer writes for the same fields, on pino's stream; nothing above info", () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const p = createPino('info', sink);
    const line: AccessLine = {
      reqId: 'r-1',
      method: 'POST',
      route: '/graphql',
      url: '/graphql?key=not-written',
      status: 200,
      ms: 1.5,
      plan: 'pro',
      key: undefined,
      refused: undefined,
      operation: 'Odd "name"\\\n\u2028\u00e9\ud800',
      cost: Number.NaN,
    };
    infoLineWriter(p, 'request', accessLineFields)?.(line);
    loggerOf(p).info('request', { ...line, url: undefined });
    const [ours, theirs] = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(ours ?? {})).toEqual(Object.keys(theirs ?? {}));
    expect({ ...ours, time: 0 }).toEqual({ ...theirs, time: 0 });
    expect(ours).toMatchObject({
      level: 30,
      msg: 'request',
      operation: 'Odd "name"\\\n\u2028\u00e9\ud800',
      cost: null,
    });
    expect(infoLineWriter(createPino('warn', sink), 'request', accessLineFields)).toBeNull();
  });

  it('quotes a string as JSON.stringify does', () => {
    for (const s of [
      '',
      'plain /v1/agg',
      'a"b',
      'a\\b',
      'tab\there',
      '\u0000\u001f\u007f',
      'é',
      '\ud83d\ude00',
      '\udc00',
    ])
      expect(jsonString(s)).toBe(JSON.stringify(s));
  });
});

describe('stderr (the default destination)', () => {
  it('gathers lines into few writes, writes a lone line within LOG_FLUSH_MS, and every line before the process exits', async () => {
    const { spawn } = await import('node:child_process');
    // A child process: a warning, a pause, 1,000 lines, then exit at once.
    const src = `
      import { createLogger } from ${JSON.stringify(new URL('../../src/core/log.ts', import.meta.url).href)};
      const log = createLogger('info');
      log.warn('alone');
      setTimeout(() => {
        for (let i = 0; i < 1000; i++) log.info('line', { i });
        process.exit(0);
      }, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', src], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    /** Whether the warning arrived before any of the lines logged a second after it. */
    let aloneFirst: boolean | null = null;
    child.stderr.on('data', (d: Buffer) => {
      text += d.toString();
      if (aloneFirst === null && text.includes('"msg":"alone"')) aloneFirst = !text.includes('"msg":"line"');
    });
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = text.split('\n').filter((l) => l.startsWith('{'));
    expect(lines).toHaveLength(1001);
    expect(lines.map((l) => (JSON.parse(l) as { i?: number }).i).slice(1)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i),
    );
    // Written while the child still waited (it logs the rest a second later), not held back until a batch fills.
    expect(aloneFirst).toBe(true);
  });

  it('holds access lines as their fields: in the order logged among other lines, at the time logged, a lone one within LOG_FLUSH_MS', async () => {
    const { spawn } = await import('node:child_process');
    // An access line, 30 ms of work, a warning, another access line; 200 ms later a lone one, then 500 ms before exit.
    const src = `
      import { createPino, infoLineWriter, loggerOf } from ${JSON.stringify(new URL('../../src/core/log.ts', import.meta.url).href)};
      const p = createPino('info');
      const write = infoLineWriter(p, 'request', (f) => ',"n":' + f.n);
      write({ n: 1 });
      for (const t = Date.now(); Date.now() - t < 30; );
      loggerOf(p).warn('between');
      write({ n: 2 });
      setTimeout(() => {
        write({ n: 3 });
        setTimeout(() => process.exit(0), 500);
      }, 200);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', src], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    let lastSeen = 0;
    child.stderr.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('"n":3') && !lastSeen) lastSeen = Date.now();
    });
    await new Promise((resolve) => child.once('exit', resolve));
    const exited = Date.now();
    const lines = text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { n?: number; msg: string; time: string });
    expect(lines.map((l) => l.n ?? l.msg)).toEqual([1, 'between', 2, 3]);
    const [first, between] = lines.map((l) => Date.parse(l.time));
    expect((between as number) - (first as number)).toBeGreaterThanOrEqual(30);
    // Written while the child still waited (half a second before it exits), not held until a batch fills.
    expect(exited - lastSeen).toBeGreaterThan(250);
  });

  it('loses no line to a full pipe: a reader that falls behind is waited for', async () => {
    const { spawn } = await import('node:child_process');
    // 1,000 lines of 2 KB, 64 KB a batch, into a pipe that holds 64 KB (partial writes), read half a second later.
    const src = `
      import { createLogger } from ${JSON.stringify(new URL('../../src/core/log.ts', import.meta.url).href)};
      const log = createLogger('info');
      for (let i = 0; i < 1000; i++) log.info('line', { i, pad: 'x'.repeat(2000) });
      process.exit(0);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', src], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // 'close': the child has exited and its stderr is read to the end.
    const closed = new Promise((resolve) => child.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 500));
    let text = '';
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    await closed;
    const lines = text.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i),
    );
  });
});

describe("a request's logger", () => {
  it('makes pino’s child only when it writes a line at an enabled level, with the bindings and options given', () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const parent = createPino('warn', sink);
    let made = 0;
    const child = parent.child.bind(parent);
    parent.child = ((b: Record<string, unknown>, o?: Record<string, unknown>) => {
      made++;
      return child(b, o);
    }) as typeof parent.child;
    const log = new LazyChildLogger(parent, { reqId: 'r-7' }, {});
    log.info('below the level');
    log.debug({ x: 1 }, 'below the level');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(made).toBe(0);
    log.error({ code: 'E' }, 'route errored');
    log.warn('again');
    expect(made).toBe(1);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { level: 50, reqId: 'r-7', code: 'E', msg: 'route errored' },
      { level: 40, reqId: 'r-7', msg: 'again' },
    ]);
    expect(log.level).toBe('warn');
  });
});
