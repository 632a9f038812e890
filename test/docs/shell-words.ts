/**
 * Just enough POSIX shell to read the docs' ```sh examples the way `sh` would: single and double quotes (both may
 * span lines), backslash escapes and `\`-newline continuations, `$VAR`/`${VAR}` expansion (unquoted expansions are
 * split on blanks), `#` comments, and `|`, `;`, `&`, `&&` between commands. No globbing, no command substitution, no
 * redirections: the examples use none (curl's `-o /dev/null` is an argument).
 */

/** One simple command and the commands its output is piped into. */
export interface ShellCommand {
  /** 1-based line (within the text given) where the command starts. */
  line: number;
  words: string[];
  /** `cmd | jq .` → `[['jq', '.']]`. */
  pipes: string[][];
  /** Variables the command used that were not defined (expanded to '', as `sh` does). */
  undefinedVars: string[];
  /** The comment at the end of the command's line and the comment lines right above it (no blank line between). */
  comments: string[];
}

/**
 * Splits `text` into commands. A command that is a lone assignment (`NAME=value`) updates `vars`, so later commands
 * (and later calls with the same map: the next block of the same page) see it. Throws on an unterminated quote.
 */
export function shellCommands(text: string, vars: Map<string, string>): ShellCommand[] {
  const out: ShellCommand[] = [];
  let i = 0;
  let line = 1;
  let segments: string[][] = [[]];
  let word: string | null = null;
  // (asserted, not annotated: the closures below assign it, which TypeScript's narrowing of `= null` does not see)
  let cmd = null as { line: number; undefinedVars: string[]; comments: string[] } | null;
  let above: string[] = [];

  const begin = () => (cmd ??= { line, undefinedVars: [], comments: above });
  const append = (s: string) => {
    begin();
    word = (word ?? '') + s;
  };
  const endWord = () => {
    if (word !== null) segments[segments.length - 1]!.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    const [words = [], ...pipes] = segments;
    if (cmd && words.length > 0) {
      const only = words.length === 1 && pipes.length === 0 ? words[0]! : '';
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(only);
      if (assignment) vars.set(assignment[1]!, assignment[2]!);
      out.push({ ...cmd, words, pipes });
      above = [];
    }
    segments = [[]];
    cmd = null;
  };
  /** Reads `$NAME` / `${NAME}` at `i`; returns its value, or null when `$` starts no name (a literal `$`). */
  const variable = (): string | null => {
    const m = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(text.slice(i));
    if (!m) return null;
    i += m[0].length;
    const name = (m[1] ?? m[2])!;
    const value = vars.get(name);
    if (value === undefined) begin().undefinedVars.push(name);
    return value ?? '';
  };

  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\\' && next === '\n') {
      line += 1;
      i += 2;
    } else if (c === '\\') {
      append(next ?? '');
      i += 2;
    } else if (c === '\n') {
      endCommand();
      line += 1;
      i += 1;
      if (text[i] === '\n') above = []; // a blank line: the comments above belong to nothing below
    } else if (c === ' ' || c === '\t') {
      endWord();
      i += 1;
    } else if (c === '#' && word === null) {
      const end = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
      const comment = text.slice(i + 1, end).trim();
      if (cmd) cmd.comments = [...cmd.comments, comment];
      else above = [...above, comment];
      i = end;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new Error(`line ${line}: unterminated '`);
      const quoted = text.slice(i + 1, end);
      append(quoted);
      line += quoted.split('\n').length - 1;
      i = end + 1;
    } else if (c === '"') {
      append('');
      i += 1;
      while (text[i] !== '"') {
        const d = text[i];
        if (d === undefined) throw new Error(`line ${line}: unterminated "`);
        const e = text[i + 1];
        if (d === '\\' && e !== undefined && '"\\$`\n'.includes(e)) {
          if (e === '\n') line += 1;
          else append(e);
          i += 2;
        } else if (d === '$') {
          const value = variable();
          append(value ?? '$');
          if (value === null) i += 1;
        } else {
          if (d === '\n') line += 1;
          append(d);
          i += 1;
        }
      }
      i += 1;
    } else if (c === '$') {
      const value = variable();
      if (value === null) {
        append('$');
        i += 1;
      } else {
        // Unquoted: the value is split into words on blanks (`-H $T` is two arguments).
        const parts = value.split(/[ \t\n]+/);
        parts.forEach((part, k) => {
          if (k > 0) endWord();
          if (part !== '' || k === 0) append(part);
        });
      }
    } else if (c === '|' && next !== '|') {
      endWord();
      segments.push([]);
      i += 1;
    } else if (c === ';' || c === '&') {
      endCommand();
      i += next === '&' ? 2 : 1;
    } else {
      append(c);
      i += 1;
    }
  }
  endCommand();
  return out;
}
