/**
 * A deliberately naive, line-by-line model of SPEC §3, written straight from
 * the reference's Go code with no index and no shortcuts: every query
 * re-splits and re-lower-cases every tool. Property tests check the real
 * scorer against it; the benchmarks use it as the baseline.
 *
 * It shares only the Go text primitives with the real code (white space,
 * lower case, category tests, byte order), which have their own tests.
 */
import { compareGo, goFields, goToLower, isLower, isUpper } from '../../src/core/text.js';
import type { ToolInfo } from '../../src/core/types.js';

export function naiveSplitCamelCase(s: string): string[] {
  if (s === '') return [];
  const runes = Array.from(s);
  const parts: string[] = [];
  let start = 0;
  for (let i = 1; i < runes.length; i++) {
    const cur = runes[i]!.codePointAt(0)!;
    if (isUpper(cur)) {
      const prev = runes[i - 1]!.codePointAt(0)!;
      if (isLower(prev)) {
        parts.push(runes.slice(start, i).join(''));
        start = i;
      } else if (i + 1 < runes.length && isLower(runes[i + 1]!.codePointAt(0)!)) {
        parts.push(runes.slice(start, i).join(''));
        start = i;
      }
    }
  }
  parts.push(runes.slice(start).join(''));
  return parts;
}

export function naiveSplitToolName(name: string): string[] {
  const parts: string[] = [];
  for (const seg of name.split('__')) {
    for (const up of seg.split('_')) {
      if (up === '') continue;
      parts.push(...naiveSplitCamelCase(up));
    }
  }
  return parts;
}

export function naiveParseKeywords(query: string): Array<{ word: string; required: boolean }> {
  const out: Array<{ word: string; required: boolean }> = [];
  for (const p of goFields(query)) {
    if (p.startsWith('+')) {
      const word = p.slice(1);
      if (word !== '') out.push({ word, required: true });
    } else if (p !== '') {
      out.push({ word: p, required: false });
    }
  }
  return out;
}

/** The reference's keywordSearch, line by line: returns [name, score] pairs in result order. */
export function naiveKeywordSearch(
  query: string,
  maxResults: number,
  tools: readonly ToolInfo[],
): Array<[string, number]> {
  const keywords = naiveParseKeywords(query);
  if (keywords.length === 0) return [];
  const scored: Array<[string, number]> = [];
  for (const t of tools) {
    const nameParts = naiveSplitToolName(t.name);
    const nameLower = goToLower(t.name);
    const descLower = goToLower(t.description);
    let total = 0;
    let allRequired = true;
    for (const kw of keywords) {
      const kwLower = goToLower(kw.word);
      let kwScore = 0;
      for (const part of nameParts) {
        const partLower = goToLower(part);
        if (partLower === kwLower) kwScore = Math.max(kwScore, 10);
        else if (partLower.includes(kwLower)) kwScore = Math.max(kwScore, 5);
      }
      if (nameLower.includes(kwLower)) kwScore = Math.max(kwScore, 3);
      if (descLower !== '' && descLower.includes(kwLower)) kwScore = Math.max(kwScore, 2);
      if (kw.required && kwScore === 0) {
        allRequired = false;
        break;
      }
      total += kwScore;
    }
    if (!allRequired) continue;
    if (total > 0) scored.push([t.name, total]);
  }
  scored.sort((a, b) => (a[1] !== b[1] ? b[1] - a[1] : compareGo(a[0], b[0])));
  return scored.slice(0, maxResults);
}
