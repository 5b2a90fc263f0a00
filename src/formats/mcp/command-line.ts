/**
 * Splits a server command line (`--mcp "npx -y @scope/server --root '/my dir'"`)
 * into a program and its arguments, the way a POSIX shell splits words, but
 * without running a shell: no variables, globs, pipes or redirections. A
 * command line that needs them can name the shell itself (`sh -c '…'`).
 *
 * - white space (space, tab, newline) separates words;
 * - `'…'` keeps everything literally;
 * - `"…"` keeps everything, except that a backslash escapes `"`, `\`, `$` and
 *   `` ` `` (as in a shell; other backslashes stay);
 * - outside quotes a backslash keeps the next character literally;
 * - `''` or `""` is an empty word.
 */
import { statSync } from 'node:fs';

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new CommandLineError(`unterminated ' quote in the command line: ${line}`);
      word += line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      let closed = false;
      while (i < n) {
        const d = line[i]!;
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < n && '"\\$`'.includes(line[i + 1]!)) {
          word += line[i + 1];
          i += 2;
          continue;
        }
        word += d;
        i++;
      }
      if (!closed) throw new CommandLineError(`unterminated " quote in the command line: ${line}`);
    } else if (c === '\\') {
      if (i + 1 < n) word += line[i + 1];
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** A command line that cannot be split (an unterminated quote). */
export class CommandLineError extends Error {
  override readonly name = 'CommandLineError';
}

/**
 * The words of a command line that name existing regular files (the
 * program when given as a path, its script, its data): what a server run
 * from it may read. A line that does not split names none.
 */
export function commandLineFiles(line: string): string[] {
  let words: string[];
  try {
    words = splitCommandLine(line);
  } catch {
    return [];
  }
  return words
    .flatMap((w) => [w, ...(w.startsWith('-') && w.includes('=') ? [w.slice(w.indexOf('=') + 1)] : [])])
    .filter((w) => {
      try {
        return w !== '' && statSync(w).isFile();
      } catch {
        return false;
      }
    });
}
