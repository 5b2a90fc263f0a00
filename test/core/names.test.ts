import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitCamelCase, splitRunes, splitToolName } from '../../src/core/names.js';

describe("splitCamelCase (the reference's own cases)", () => {
  it.each<[string, string[]]>([
    ['', []],
    ['hello', ['hello']],
    ['NotebookEdit', ['Notebook', 'Edit']],
    ['camelCase', ['camel', 'Case']],
    ['HTMLParser', ['HTML', 'Parser']],
    ['getURL', ['get', 'URL']],
    ['A', ['A']],
    ['AB', ['AB']],
    ['HTTP', ['HTTP']],
  ])('%j', (input, expected) => {
    expect(splitCamelCase(input)).toEqual(expected);
  });
});

describe('splitCamelCase (more boundaries)', () => {
  it.each<[string, string[], string]>([
    ['getHTTPResponseCode', ['get', 'HTTP', 'Response', 'Code'], 'acronym in the middle'],
    ['v2Api', ['v2', 'Api'], 'upper after a digit splits when a lower-case letter follows'],
    ['x1Bc', ['x1', 'Bc'], 'upper followed by lower splits even after a digit'],
    ['ÉtéÉcole', ['Été', 'École'], 'Latin-1 letters are classified per code point'],
    ['İstanbulCity', ['İstanbul', 'City'], 'U+0130 is upper-case'],
    ['straßeStraße', ['straße', 'Straße'], 'ß is lower-case'],
    ['\u{10428}\u{10400}', ['\u{10428}', '\u{10400}'], 'astral Deseret letters are one code point each'],
    ['aǅb', ['aǅb'], 'titlecase U+01C5 is neither upper nor lower'],
    ['ABc', ['A', 'Bc'], 'upper followed by lower after an upper'],
    ['aB', ['a', 'B'], 'single trailing upper'],
  ])('%j → %j (%s)', (input, expected) => {
    expect(splitCamelCase(input)).toEqual(expected);
  });
});

describe('splitToolName', () => {
  it.each<[string, string[]]>([
    ['mcp__slack__send_message', ['mcp', 'slack', 'send', 'message']],
    ['get_weather', ['get', 'weather']],
    ['NotebookEdit', ['Notebook', 'Edit']],
    ['mcp__github__createPullRequest', ['mcp', 'github', 'create', 'Pull', 'Request']],
    ['a___b', ['a', 'b']],
    ['__leading__and__trailing__', ['leading', 'and', 'trailing']],
    ['___', []],
    ['', []],
    ['mcp__server-name__list-files', ['mcp', 'server-name', 'list-files']],
    ['__proto__', ['proto']],
    ['constructor', ['constructor']],
  ])('%j', (input, expected) => {
    expect(splitToolName(input)).toEqual(expected);
  });
});

describe('splitCamelCase on ASCII (one pass over character codes) against the code point loop', () => {
  it('the same pieces for every ASCII string', () => {
    const char = fc.oneof(
      fc.constantFrom(...'aAzZbBmM09_-. \n\0\x7f'),
      fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 16 }), (chars) => {
        const s = chars.join('');
        expect(splitCamelCase(s)).toEqual(splitRunes(s));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('splitToolName (one pass over an ASCII name) against the spec written out', () => {
  /** SPEC §3 as the reference writes it: split on `__`, then on `_`, drop empty pieces, split each at camelCase. */
  const model = (name: string): string[] =>
    name
      .split('__')
      .flatMap((segment) => segment.split('_'))
      .filter((piece) => piece !== '')
      .flatMap((piece) => splitRunes(piece));

  it('the same parts for every name', () => {
    const char = fc.oneof(
      fc.constantFrom(...'aAzZbBmM09__-. \n\0\x7f'),
      fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('É', 'é', 'ǅ', 'Σ', 'ß', '𝐀', '\u{10428}', '\u{10400}', '\ud800'),
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }), (chars) => {
        const name = chars.join('');
        expect(splitToolName(name)).toEqual(model(name));
      }),
      { numRuns: 10000 },
    );
  });

  it.each<[string, string[]]>([
    ['mcp__atlassian__createJiraIssue', ['mcp', 'atlassian', 'create', 'Jira', 'Issue']],
    ['getHTMLParser_v2', ['get', 'HTML', 'Parser', 'v2']],
    ['_A_', ['A']],
    ['aB_Cd', ['a', 'B', 'Cd']],
    ['ABc_dEF', ['A', 'Bc', 'd', 'EF']],
    ['créerFichier_x', ['créer', 'Fichier', 'x']],
  ])('%j', (input, expected) => {
    expect(splitToolName(input)).toEqual(expected);
  });
});
