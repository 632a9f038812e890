import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.ts';

function sink(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let out = '';
  const stream = { isTTY, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
  return { stream, text: () => out };
}

describe('progress', () => {
  it('writes plain lines, one per 10 % step, when not on a terminal', () => {
    const s = sink(false);
    const p = createProgress('replay', 1000, s.stream);
    for (let i = 1; i <= 1000; i += 7) p.update(i);
    p.update(1000);
    p.done();
    const lines = s.text().trim().split('\n');
    expect(lines.slice(0, -1).map((l) => /: (\d+)%/.exec(l)?.[1])).toEqual([
      '0',
      '10',
      '20',
      '30',
      '40',
      '50',
      '60',
      '70',
      '80',
      '90',
      '100',
    ]);
    expect(lines.at(-1)).toMatch(/^replay: done in \d+\.\d s$/);
    expect(s.text()).not.toContain('\r');
  });

  it('redraws one bar in place on a terminal', () => {
    const s = sink(true);
    const p = createProgress('gen', 10, s.stream);
    p.update(10);
    p.done('ok');
    // eslint-disable-next-line no-control-regex -- the terminal escape is what is being tested
    expect(s.text()).toMatch(/^\rgen \[#{30}\] 100% 10\/10\r\x1b\[Kgen: done in \d+\.\d s — ok\n$/);
  });
});
