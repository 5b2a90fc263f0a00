/**
 * Near misses (issue 28): a document no reader takes names the family whose own signs it has and
 * what that family expects, never a wrong family. One document per family, then every committed
 * fixture with one key taken away.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/io/errors.js';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { RECORDING_FORMATS } from '../../../src/formats/recordings/registry.js';
import { inputError } from '../helpers.js';
import { RECORDINGS, TRANSCRIPTS } from './helpers.js';

const TRIED = `tried ${RECORDING_FORMATS.join(', ')} (see simulate --help, or force one with --format)`;
const headline = (v: unknown, name = 'x.json'): string =>
  inputError(() => loadRecordingText(JSON.stringify(v), { name })).headline;

function files(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((f) => (statSync(`${dir}${f}`).isDirectory() ? files(`${dir}${f}/`) : [`${dir}${f}`]))
    .filter((f) => /\.(json|jsonl)$/.test(f))
    .sort();
}

/** The family a near miss names, from either error: `closest: <family> (` or `: signs of <family>, `. */
function named(message: string): string | null {
  return (/; closest: ([a-z-]+) \(/.exec(message) ?? /: signs of ([a-z-]+), which expects/.exec(message))?.[1] ?? null;
}

type Path = readonly string[];

/**
 * Where keys are: paths of up to two keys (`*` for every item of a list), from every object of
 * the document, e.g. `* / role`, `messages / * / content`, `* / content / * / type`.
 */
function paths(value: unknown, depth = 2, at: Path = []): Path[] {
  if (Array.isArray(value)) {
    const out = new Map<string, Path>();
    for (const v of value) for (const p of paths(v, depth, [...at, '*'])) out.set(p.join('\0'), p);
    return [...out.values()];
  }
  if (value === null || typeof value !== 'object' || depth === 0) return [];
  return Object.entries(value).flatMap(([k, v]) => [[...at, k], ...paths(v, depth - 1, [...at, k])]);
}

/** The document with the last key of `path` taken out wherever the path reaches. */
function without(value: unknown, path: Path): unknown {
  const [head, ...rest] = path;
  if (Array.isArray(value)) return head === '*' ? value.map((v) => without(v, rest)) : value;
  if (value === null || typeof value !== 'object' || head === undefined || head === '*') return value;
  const o = value as Record<string, unknown>;
  if (!(head in o)) return value;
  if (rest.length === 0) {
    const { [head]: _, ...others } = o;
    return others;
  }
  return { ...o, [head]: without(o[head], rest) };
}

function parse(file: string, text: string): unknown {
  return file.endsWith('.jsonl')
    ? text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l))
    : JSON.parse(text);
}

describe('a near miss names its own family', () => {
  it('probe', () => {
    const out: string[] = [];
    for (const file of [...files(RECORDINGS), ...files(TRANSCRIPTS)]) {
      let format: string;
      try {
        format = loadTranscriptFile(file).format;
      } catch {
        continue;
      }
      const value = parse(file, readFileSync(file, 'utf8'));
      for (const path of paths(value, 3).slice(0, 200)) {
        let message: string | null = null;
        try {
          loadRecordingText(JSON.stringify(without(value, path)), { name: 'x.json' });
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          message = e.headline;
        }
        const family = message === null ? null : named(message);
        if (family !== null) out.push(`${format} -> ${family}${family === format ? "" : ` ${path.join("/")} ${file}`}`);
      }
    }
    console.log(out.length, [...new Set(out)].join('\n'));
  });
});
