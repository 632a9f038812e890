/**
 * The `curl` examples of a Markdown page, read as a reader's shell would run them, and turned into requests.
 * Pure: no files, no network (the e2e test reads the pages and sends the requests).
 */
import { shellCommands } from './shell-words.ts';

/**
 * Exempts an example from being run: a shell comment on its line or right above it (in a block), or an HTML comment
 * on the same line (`<!-- not run by the docs test: … -->`, for a `curl …` written inline in the text).
 */
export const NOT_RUN_MARKER = /\bnot run by the docs test: (.+?)(?:\s*-->)?\s*$/;

export interface CurlExample {
  /** `README.md:123`. */
  where: string;
  /** The command's first line as written, for test names. */
  source: string;
  /** Arguments after `curl`, quotes removed and variables expanded. */
  args: string[];
  /** Commands the output is piped into. */
  pipes: string[][];
  undefinedVars: string[];
  /** Why the page says it is not run (the marker's text), or null. */
  notRun: string | null;
}

/** Shell text of a page, in page order: ```sh (bash, shell) blocks, and inline code spans that start with `curl `. */
export interface ShellSnippet {
  text: string;
  /** The page line of the snippet's first line. */
  line: number;
  inline: boolean;
}

const FENCE = /^\s*```(\S*)\s*$/;
const SHELL = new Set(['sh', 'bash', 'shell']);
const INLINE_CURL = /`(curl\s[^`]+)`/g;

export function shellSnippets(markdown: string): ShellSnippet[] {
  const out: ShellSnippet[] = [];
  const lines = markdown.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const open = FENCE.exec(lines[n]!);
    if (!open) {
      for (const m of lines[n]!.matchAll(INLINE_CURL)) out.push({ text: m[1]!, line: n + 1, inline: true });
      continue;
    }
    const end = lines.findIndex((l, k) => k > n && /^\s*```\s*$/.test(l));
    if (end === -1) break;
    if (SHELL.has(open[1]!))
      out.push({ text: lines.slice(n + 1, end).join('\n'), line: n + 2, inline: false });
    n = end;
  }
  return out;
}

/**
 * Every `curl` command of the page, in order. Variables set by a block (`B=…`) hold for the rest of the page, as in
 * one terminal; `env` gives the ones the page expects the reader to have (`$ADMIN_TOKEN`…).
 */
export function curlExamples(
  markdown: string,
  file: string,
  env: ReadonlyMap<string, string>,
): CurlExample[] {
  const vars = new Map(env);
  const lines = markdown.split('\n');
  const out: CurlExample[] = [];
  for (const snippet of shellSnippets(markdown)) {
    for (const c of shellCommands(snippet.text, vars)) {
      if (c.words[0] !== 'curl') continue;
      const at = snippet.line + c.line - 1;
      const comments = snippet.inline ? [lines[at - 1] ?? ''] : c.comments;
      const marker = comments.map((t) => NOT_RUN_MARKER.exec(t)?.[1]).find(Boolean);
      out.push({
        where: `${file}:${at}`,
        source: snippet.inline ? snippet.text : (lines[at - 1] ?? '').trim(),
        args: c.words.slice(1),
        pipes: c.pipes,
        undefinedVars: c.undefinedVars,
        notRun: marker ?? null,
      });
    }
  }
  return out;
}

/** Lines of the page's shell blocks that start with `curl`, plus inline `curl …` spans: one example each. */
export function curlLineCount(markdown: string): number {
  return shellSnippets(markdown)
    .flatMap((s) => s.text.split('\n'))
    .filter((l) => /^\s*curl\s/.test(l)).length;
}

/** What curl would send, and what it would print. */
export interface CurlRequest {
  method: string;
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string | null;
  /** `-i` or `-D -`: the status line and headers go to stdout. */
  printsHeaders: boolean;
  /** false with `-o /dev/null`. */
  printsBody: boolean;
}

const NO_VALUE = new Set(['-s', '--silent', '-S', '--show-error', '-i', '--include', '-G', '--get']);
const WITH_VALUE = new Set([
  '-X',
  '--request',
  '-H',
  '--header',
  '-d',
  '--data',
  '--data-raw',
  '--data-binary',
  '--data-urlencode',
  '-D',
  '--dump-header',
  '-o',
  '--output',
]);

/** curl's `--data-urlencode` for `name=content`, `=content` and `content`. */
function urlencodeArg(v: string): string {
  const eq = v.indexOf('=');
  const enc = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16)}`);
  if (eq === -1) return enc(v);
  return eq === 0 ? enc(v.slice(1)) : `${v.slice(0, eq)}=${enc(v.slice(eq + 1))}`;
}

/**
 * curl's options as the docs use them: -s -S -i -G -X -H -d (--data, --data-raw, --data-binary), --data-urlencode,
 * -D - and -o /dev/null, combined short flags (`-si`). Anything else throws, so an example using an option this
 * does not model fails instead of being run differently from curl.
 */
export function parseCurl(args: readonly string[]): CurlRequest {
  const flags = new Set<string>();
  const opts: [string, string][] = [];
  const urls: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (/^-[A-Za-z]{2,}$/.test(a) && [...a.slice(1)].every((f) => NO_VALUE.has(`-${f}`))) {
      for (const f of a.slice(1)) flags.add(`-${f}`);
    } else if (NO_VALUE.has(a)) {
      flags.add(a);
    } else if (WITH_VALUE.has(a)) {
      const v = args[++k];
      if (v === undefined) throw new Error(`curl ${a} needs a value`);
      opts.push([a, v]);
    } else if (a.startsWith('-')) {
      throw new Error(`curl option ${a} is not modelled by test/docs/curl-examples.ts`);
    } else {
      urls.push(a);
    }
  }
  if (urls.length !== 1) throw new Error(`expected one URL, got ${JSON.stringify(urls)}`);
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'curl/8 (docs test)' };
  const data: string[] = [];
  let method: string | null = null;
  let printsHeaders = flags.has('-i') || flags.has('--include');
  let printsBody = true;
  for (const [o, v] of opts) {
    if (o === '-X' || o === '--request') method = v;
    else if (o === '-H' || o === '--header') {
      const colon = v.indexOf(':');
      if (colon < 1) throw new Error(`header without a name: ${v}`);
      headers[v.slice(0, colon).trim().toLowerCase()] = v.slice(colon + 1).trim();
    } else if (o === '--data-urlencode') data.push(urlencodeArg(v));
    else if (o === '-D' || o === '--dump-header') {
      if (v !== '-') throw new Error(`curl ${o} ${v}: only "-" (stdout) is modelled`);
      printsHeaders = true;
    } else if (o === '-o' || o === '--output') {
      if (v !== '/dev/null') throw new Error(`curl ${o} ${v}: only /dev/null is modelled`);
      printsBody = false;
    } else {
      if (v.startsWith('@')) throw new Error(`curl ${o} ${v}: reading a file is not modelled`);
      data.push(v); // as given: curl strips line breaks only from data it reads from a file (@file)
    }
  }
  let url = /^[a-z]+:\/\//i.test(urls[0]!) ? urls[0]! : `http://${urls[0]!}`;
  let body: string | null = data.length > 0 ? data.join('&') : null;
  const get = flags.has('-G') || flags.has('--get');
  if (get && body !== null) {
    url += (url.includes('?') ? '&' : '?') + body;
    body = null;
  }
  if (body !== null && !('content-type' in headers))
    headers['content-type'] = 'application/x-www-form-urlencoded';
  return {
    method: method ?? (get ? 'GET' : body !== null ? 'POST' : 'GET'),
    url,
    headers,
    body,
    printsHeaders,
    printsBody,
  };
}
