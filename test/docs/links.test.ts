/**
 * Every committed Markdown page (`git ls-files '*.md'`) links only to files inside the repository that exist: a
 * relative link (inline, image, reference definition, HTML `<a>`/`<img>`), resolved from the page's folder (or, when
 * it starts with `/`, from the repository's root, as GitHub does), must name a file or folder of the working tree
 * that git does not ignore (so not `dist/`, `data/`), and must not leave the repository; a `../` path in a code span
 * must not leave it either (it may name a file of a built package, such as the kit's `../provider.js`). Anchors are not checked. URLs are not relative links: loopback examples
 * (`http://127.0.0.1:4000/…`) and citations of public specifications may stay.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';
import { markdownLinks, targetKind } from './markdown-links.ts';

const git = (...args: string[]): string[] =>
  execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);

const PAGES = git('ls-files', '-z', '--', '*.md');
/** The files a link may name: tracked, or new and not ignored. */
const FILES = new Set(git('ls-files', '-z', '--cached', '--others', '--exclude-standard'));
const DIRS = new Set(
  [...FILES].flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, a) => a.slice(0, i + 1).join('/')),
  ),
);

/** Why `target`, written on `page`, is not a file of the repository; null when it is. */
export function brokenBecause(page: string, target: string): string | null {
  let path = target.replace(/[#?].*$/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    return 'not valid percent-encoding';
  }
  const abs = path.startsWith('/') ? join(PROJECT_ROOT, path) : join(PROJECT_ROOT, dirname(page), path);
  const rel = relative(PROJECT_ROOT, normalize(abs)).split(sep).join('/');
  if (rel === '') return null;
  if (rel.startsWith('..') || isAbsolute(rel)) return 'points outside the repository';
  if (FILES.has(rel) || DIRS.has(rel.replace(/\/$/, ''))) return null;
  return `no such file in the repository (${rel})`;
}

describe('Markdown links', () => {
  it('finds the pages', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES).toContain('docs/architecture.md');
    expect(PAGES.length).toBeGreaterThan(30);
  });

  it('every relative link of every committed page names a file inside the repository', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const l of markdownLinks(readFileSync(join(PROJECT_ROOT, page), 'utf8'))) {
        if (targetKind(l.target) !== 'path') continue;
        const why = brokenBecause(page, l.target);
        // A path in a code span may name a file of a built package (the kit's `../provider.js`): it must only stay inside.
        if (why && (l.kind !== 'code-path' || why === 'points outside the repository'))
          broken.push(`${page}:${l.line} ${l.target}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the check itself: what it finds and what it refuses', () => {
    const page = [
      'See [the docs](docs/a.md#part), ![shot](<docs/b c.png> "title") and [ref][r].',
      '[r]: ../outside.md',
      '`[not a link](nowhere.md)` and `../../shared/DESIGN.md`',
      '```sh',
      '[also not](nowhere.md)',
      '```',
      '<img src="img/x.png"> [a link',
      'over two lines](docs/c.md) [web](https://example.org/x) [here](#anchor)',
    ].join('\n');
    expect(markdownLinks(page).map((l) => [l.line, l.target, l.kind])).toEqual([
      [1, 'docs/a.md#part', 'link'],
      [1, 'docs/b c.png', 'link'],
      [2, '../outside.md', 'reference'],
      [3, '../../shared/DESIGN.md', 'code-path'],
      [7, 'img/x.png', 'html'],
      [8, 'docs/c.md', 'link'],
      [8, 'https://example.org/x', 'link'],
      [8, '#anchor', 'link'],
    ]);
    expect(brokenBecause('README.md', '../shared/DESIGN.md')).toBe('points outside the repository');
    expect(brokenBecause('docs/x.md', '../../etc/passwd')).toBe('points outside the repository');
    expect(brokenBecause('docs/x.md', 'nothing-here.md')).toMatch(/^no such file/);
    expect(brokenBecause('README.md', 'dist/kits/kit/README.md')).toMatch(/^no such file/); // ignored by git
    expect(brokenBecause('docs/x.md', 'price-api.md#images')).toBeNull();
    expect(brokenBecause('docs/x.md', '../README.md')).toBeNull();
    expect(brokenBecause('router/README.md', '/docs/graph.md')).toBeNull();
    expect(brokenBecause('README.md', 'docs/')).toBeNull();
  });
});
