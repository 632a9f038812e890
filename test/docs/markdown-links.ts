/**
 * The links of a Markdown page, as a reader's renderer finds them, for the link check (test/docs/links.test.ts).
 * Pure: no files.
 *
 * Found: inline links and images `[text](target "title")`, reference definitions `[label]: target`, and the
 * `href`/`src` of `<a>` and `<img>` written as HTML; not in fenced code blocks or code spans, which are text. Also
 * found: code spans that name a path relative to the page going up (`../x`), which a reader follows as a link.
 */

export interface FoundLink {
  /** 1-based line of the page. */
  line: number;
  target: string;
  kind: 'link' | 'reference' | 'html' | 'code-path';
}

/** The page with fenced code blocks and code spans blanked (same length, same lines), and the code spans' texts. */
function blankCode(markdown: string): { text: string; spans: { at: number; code: string }[] } {
  const lines = markdown.split('\n');
  let fence: string | null = null;
  const kept = lines.map((l) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(l);
    if (fence !== null) {
      if (m?.[1] && m[1][0] === fence[0] && m[1].length >= fence.length && l.trim() === m[1]) fence = null;
      return ' '.repeat(l.length);
    }
    if (m?.[1]) {
      fence = m[1];
      return ' '.repeat(l.length);
    }
    return l;
  });
  const spans: { at: number; code: string }[] = [];
  // A code span: a run of backticks, then anything up to the same run (CommonMark), within a paragraph.
  const text = kept
    .join('\n')
    .replace(/(`+)([^`]|[^`][^]*?[^`])\1(?!`)/g, (whole, _ticks: string, code: string, at: number) => {
      spans.push({ at, code: code.trim() });
      return whole.replace(/[^\n]/g, ' ');
    });
  return { text, spans };
}

const lineAt = (text: string, at: number): number => text.slice(0, at).split('\n').length;
const unbracket = (t: string): string => (t.startsWith('<') && t.endsWith('>') ? t.slice(1, -1) : t);

export function markdownLinks(markdown: string): FoundLink[] {
  const { text, spans } = blankCode(markdown);
  const out: FoundLink[] = [];
  // `](target)` or `](target "title")`: the target may hold balanced parentheses, or be written in <…>.
  for (const m of text.matchAll(
    /\]\(\s*(<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
  ))
    out.push({ line: lineAt(text, m.index), target: unbracket(m[1] ?? ''), kind: 'link' });
  for (const m of text.matchAll(/^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)/gm))
    out.push({ line: lineAt(text, m.index), target: unbracket(m[1] ?? ''), kind: 'reference' });
  for (const m of text.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi))
    out.push({ line: lineAt(text, m.index), target: m[1] ?? m[2] ?? '', kind: 'html' });
  for (const s of spans)
    if (/^(\.\.\/)+[^\s]*$/.test(s.code))
      out.push({ line: lineAt(text, s.at), target: s.code, kind: 'code-path' });
  return out.sort((a, b) => a.line - b.line);
}

/** What a target is: a URL (any scheme, or `//host`), an anchor of the page itself, or a path. */
export function targetKind(target: string): 'url' | 'anchor' | 'path' {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return 'url';
  if (target === '' || target.startsWith('#')) return 'anchor';
  return 'path';
}
