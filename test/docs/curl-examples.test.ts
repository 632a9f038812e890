import { describe, expect, it } from 'vitest';
import { curlExamples, curlLineCount, parseCurl } from './curl-examples.ts';
import { shellCommands } from './shell-words.ts';

const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;

describe('shellCommands reads the docs as sh would', () => {
  it('quotes spanning lines, continuations, expansion (split when unquoted), comments and pipes', () => {
    const vars = new Map<string, string>();
    const text = [
      `T="authorization: Bearer x"   # a session`,
      `# above`,
      `curl -s $U/graphql -H "$T" -H $T \\`,
      `  -d '{"a":`,
      `  1}' | jq .`,
      `echo "\\$T is $T" ; echo \${T}`,
    ].join('\n');
    const cmds = shellCommands(text, vars);
    expect(cmds.map((c) => c.words)).toEqual([
      ['T=authorization: Bearer x'],
      [
        'curl',
        '-s',
        '/graphql',
        '-H',
        'authorization: Bearer x',
        '-H',
        'authorization:',
        'Bearer',
        'x',
        '-d',
        '{"a":\n  1}',
      ],
      ['echo', '$T is authorization: Bearer x'],
      ['echo', 'authorization:', 'Bearer', 'x'],
    ]);
    expect(cmds[1]).toMatchObject({
      line: 3,
      pipes: [['jq', '.']],
      undefinedVars: ['U'],
      comments: ['above'],
    });
    expect(cmds[0]?.comments).toEqual(['a session']);
    expect(vars.get('T')).toBe('authorization: Bearer x');
  });

  it('a blank line detaches the comments above it; an open quote is an error', () => {
    expect(shellCommands('# far\n\ncurl x', new Map())[0]?.comments).toEqual([]);
    expect(() => shellCommands(`curl -d '{`, new Map())).toThrow(/unterminated/);
  });
});

describe('curlExamples', () => {
  const page = [
    'Text with `curl -s $B/inline` inline. <!-- not run by the docs test: it is only an illustration -->',
    fence('sh', 'B=http://127.0.0.1:4000/v1\ncurl -s $B/ping\nnpx coinwallet serve'),
    fence('ts', "const s = 'curl -s $B/not-shell';"),
    fence('sh', '# not run by the docs test: mainnet\ncurl -s "$B/ping?x=$Y"   # pong'),
  ].join('\n');

  it('finds blocks and inline spans in page order, carries variables across blocks, reads markers', () => {
    const ex = curlExamples(page, 'p.md', new Map([['Y', '1']]));
    expect(ex.map((e) => [e.where, e.args, e.notRun])).toEqual([
      ['p.md:1', ['-s', '/inline'], 'it is only an illustration'],
      ['p.md:4', ['-s', 'http://127.0.0.1:4000/v1/ping'], null],
      ['p.md:12', ['-s', 'http://127.0.0.1:4000/v1/ping?x=1'], 'mainnet'],
    ]);
    expect(ex[0]?.undefinedVars).toEqual(['B']);
    expect(curlLineCount(page)).toBe(3);
  });
});

describe('parseCurl', () => {
  it('-d sends POST with curl’s default form content type unless one is given', () => {
    expect(parseCurl(['-s', 'localhost:4000/x', '-d', '{"a":1}'])).toMatchObject({
      method: 'POST',
      url: 'http://localhost:4000/x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '{"a":1}',
      printsHeaders: false,
      printsBody: true,
    });
    const json = parseCurl(['-X', 'PUT', 'http://h/x', '-H', 'Content-Type: application/json', '-d', '{}']);
    expect(json).toMatchObject({ method: 'PUT', headers: { 'content-type': 'application/json' } });
  });

  it('-G with --data-urlencode builds the query; -si, -D - and -o /dev/null shape the output', () => {
    const r = parseCurl(['-G', '--data-urlencode', 'origin=https://a.example/p?x=1', 'http://h/access?y=2']);
    expect(r).toMatchObject({
      method: 'GET',
      body: null,
      url: 'http://h/access?y=2&origin=https%3A%2F%2Fa.example%2Fp%3Fx%3D1',
    });
    expect(parseCurl(['-si', 'http://h/'])).toMatchObject({ printsHeaders: true, printsBody: true });
    expect(parseCurl(['http://h/', '-D', '-', '-o', '/dev/null'])).toMatchObject({
      printsHeaders: true,
      printsBody: false,
    });
  });

  it('refuses what it does not model rather than sending something else', () => {
    expect(() => parseCurl(['-L', 'http://h/'])).toThrow(/-L is not modelled/);
    expect(() => parseCurl(['-d', '@body.json', 'http://h/'])).toThrow(/reading a file/);
    expect(() => parseCurl(['-o', 'out.json', 'http://h/'])).toThrow(/only \/dev\/null/);
    expect(() => parseCurl(['-s'])).toThrow(/one URL/);
  });
});
