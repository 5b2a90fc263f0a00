/**
 * Mutators: each takes the bytes of an input (and the generator) and returns
 * new bytes. Byte-level ones (bit flips, invalid UTF-8) work on the buffer;
 * text-level ones (escape injection, nesting, duplicated keys) on the text
 * decoded as UTF-8. All are deterministic given the generator.
 *
 * Over 400 lines: a flat list of small, independent mutators.
 */

/** Text that must never reach a terminal raw. */
export const HOSTILE_TEXT = [
  '\u001b[31mRED\u001b[0m',
  '\u001b[2J\u001b[H',
  '\u001b]0;pwned title\u0007',
  '\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\',
  '\u001b]52;c;cHduZWQ=\u0007',
  '\u009b31m',
  '\u009d0;c1 osc\u009c',
  '\u001bP+q544e\u001b\\',
  '\u001b[6n',
  '\u202egnp.exe',
  '\u2066isolate\u2069',
  '\u202a\u202b\u202c\u202d',
  '\u200f\u200e',
  '\u0000nul',
  '\u007fdel',
  'carriage\rreturn',
  'back\b\b\bspace',
  'line\u2028sep\u2029para',
  'next\u0085line',
  'tab\there',
  'bell\u0007',
  '\ufeffbom inside',
  'vertical\u000btab\u000cform',
  // Markup for the HTML reports: only ever text there (test/fuzz/classify.mjs checkHtml).
  '<script>window.pwned=1</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '</style></title></textarea><script>x()</script>',
  'javascript:alert(1)',
  '<!-- ]]> &amp; &#x41; &',
];

/** Names that are JavaScript object keys. */
export const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];

const INTERESTING_BYTES = [
  0x00, 0xff, 0xfe, 0x1b, 0x80, 0xc0, 0xc3, 0xed, 0xf4, 0x22, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x2c, 0x0a, 0x0d, 0x5c,
  0x26, 0x2a, 0x21, 0x7c, 0x3e, 0x2d, 0x23, 0x09, 0x20,
];

const INVALID_UTF8 = [
  [0xff],
  [0xc3],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0x80],
  [0xf4, 0x90, 0x80, 0x80],
];

const SCALARS = [
  'null',
  'true',
  'false',
  '0',
  '-1',
  '-0',
  '1e999',
  '3.0',
  '2.5',
  '12345678901234567890123',
  '[]',
  '{}',
  '""',
  '"x"',
  '[null]',
  '{"":null}',
  '"\\ud800"',
  '"\\u0000"',
];

const YAML_SPECIALS = [
  '!foo bar',
  '!!binary aGVsbG8=',
  '!!set {a, b}',
  '!!omap [a: 1]',
  '!!timestamp 2001-12-14',
  '!<tag:example.com,2000:x> y',
  '!!str',
  '!!int 0x1F',
  '!!float .nan',
  '&anchor value',
  '*nosuchanchor',
  '<<: {a: 1}',
  '? [complex, key]',
  '|\n  literal\n  block',
  '>-\n  folded',
  '"unterminated',
  "'single ''quoted'''",
  '{flow: [map, with], nested: {x: y}}',
  '~',
  'yes',
  '0o17',
  '.inf',
];

function utf8(buf) {
  return buf.toString('utf8');
}

/** Positions of every match of `re` (global) in `text`. */
function positions(text, re) {
  const out = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null && out.length < 100_000; m = re.exec(text)) {
    out.push({ index: m.index, match: m });
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

function insertAt(text, i, s) {
  return text.slice(0, i) + s + text.slice(i);
}

function isYamlLike(text) {
  return !/^[\s\ufeff]*[[{]/.test(text);
}

/** A JSON string literal's body (without quotes) for `s`. */
function jsonBody(s) {
  return JSON.stringify(s).slice(1, -1);
}

function nestDepth(rng) {
  return rng.pick([2, 50, 999, 1000, 1001, 1002, 5000, 100_000]);
}

// ---------------------------------------------------------------- byte level

function bitFlips(buf, rng) {
  const out = Buffer.from(buf);
  if (out.length === 0) return out;
  const n = rng.range(1, 8);
  for (let k = 0; k < n; k++) {
    const i = rng.int(out.length);
    out[i] ^= 1 << rng.int(8);
  }
  return out;
}

function interestingBytes(buf, rng) {
  const out = Buffer.from(buf);
  if (out.length === 0) return Buffer.from([rng.pick(INTERESTING_BYTES)]);
  const n = rng.range(1, 4);
  for (let k = 0; k < n; k++) out[rng.int(out.length)] = rng.pick(INTERESTING_BYTES);
  return out;
}

function invalidUtf8(buf, rng) {
  const i = rng.int(buf.length + 1);
  return Buffer.concat([buf.subarray(0, i), Buffer.from(rng.pick(INVALID_UTF8)), buf.subarray(i)]);
}

function truncate(buf, rng) {
  return buf.subarray(0, rng.int(buf.length + 1));
}

function cutOut(buf, rng) {
  const a = rng.int(buf.length + 1);
  const b = Math.min(buf.length, a + rng.range(1, 200));
  return Buffer.concat([buf.subarray(0, a), buf.subarray(b)]);
}

function duplicateChunk(buf, rng) {
  if (buf.length === 0) return buf;
  const a = rng.int(buf.length);
  const len = Math.min(buf.length - a, rng.range(1, 400));
  const chunk = buf.subarray(a, a + len);
  const times = rng.pick([1, 2, 10]);
  return Buffer.concat([buf.subarray(0, a + len), ...Array(times).fill(chunk), buf.subarray(a + len)]);
}

function splice(buf, rng, ctx) {
  const other = rng.pick(ctx.corpus).bytes;
  const a = rng.int(other.length + 1);
  const b = Math.min(other.length, a + rng.range(1, 2000));
  const at = rng.int(buf.length + 1);
  const replace = rng.chance(0.5) ? rng.int(Math.min(200, buf.length - at) + 1) : 0;
  return Buffer.concat([buf.subarray(0, at), other.subarray(a, b), buf.subarray(at + replace)]);
}

function encoding(buf, rng) {
  switch (rng.int(6)) {
    case 0:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), buf]);
    case 1:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), buf]);
    case 2:
      return Buffer.from(utf8(buf).replace(/\r?\n/g, '\r\n'));
    case 3:
      return Buffer.from(utf8(buf).replace(/\r?\n/g, '\r'));
    case 4:
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf8(buf), 'utf16le')]);
    default:
      return Buffer.from(utf8(buf).replace(/\n/g, rng.pick(['\n\n', ' \n', '\n\t', '\u2028'])));
  }
}

// ---------------------------------------------------------------- text level

/** Injects hostile text into a string value (escaped for JSON, quoted for YAML) or raw anywhere. */
function injectEscapes(text, rng) {
  const hostile = Array.from({ length: rng.range(1, 3) }, () => rng.pick(HOSTILE_TEXT)).join('');
  if (rng.chance(0.2)) return insertAt(text, rng.int(text.length + 1), hostile); // raw, anywhere
  if (isYamlLike(text)) {
    const lines = positions(text, /^([ \t]*(?:- )?)([A-Za-z_]+)[ \t]*:[ \t]+(.*)$/gm);
    if (lines.length > 0) {
      const { index, match } = rng.pick(lines);
      const value = match[3].replace(/^["']|["']$/g, '');
      const quoted = JSON.stringify(rng.chance(0.5) ? hostile + value : value + hostile);
      return text.slice(0, index) + `${match[1]}${match[2]}: ${quoted}` + text.slice(index + match[0].length);
    }
  }
  const strings = positions(text, /"(?:[^"\\\n]|\\.)*"/g);
  if (strings.length === 0) return insertAt(text, rng.int(text.length + 1), hostile);
  const { index, match } = rng.pick(strings);
  const at = rng.chance(0.5) ? index + 1 : index + match[0].length - 1;
  return insertAt(text, at, jsonBody(hostile));
}

/** A very long line inside a string value (or raw). */
function longLine(text, rng) {
  const n = rng.pick([5_000, 100_000, 300_000]);
  const word = rng.chance(0.5) ? 'x'.repeat(n) : 'long words '.repeat(Math.ceil(n / 11));
  const strings = positions(text, /"(?:[^"\\\n]|\\.)*"/g);
  if (strings.length > 0 && rng.chance(0.8)) {
    const { index } = rng.pick(strings);
    return insertAt(text, index + 1, word);
  }
  const i = text.indexOf('\n', rng.int(text.length + 1));
  return insertAt(text, i < 0 ? text.length : i, ` ${word}`);
}

function deepNesting(text, rng) {
  const n = nestDepth(rng);
  const kind = rng.int(4);
  if (kind === 0) {
    const inner = rng.chance(0.5) ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    if (isYamlLike(text)) {
      const at = positions(text, /^[ \t]*(?:- )?[A-Za-z_]+:[ \t]*\n/gm);
      if (at.length > 0) {
        const { index, match } = rng.pick(at);
        const indent = /^[ \t]*/.exec(match[0])[0].replace('- ', '  ');
        return insertAt(text, index + match[0].length, `${indent}  deep: ${inner}\n`);
      }
      return `deep: ${inner}\n${text}`;
    }
    const objs = positions(text, /\{/g);
    if (objs.length === 0) return inner + text;
    const { index } = rng.pick(objs);
    return insertAt(text, index + 1, `"deep":${inner},`);
  }
  if (kind === 1) return '['.repeat(n) + text + ']'.repeat(n); // the whole document, wrapped
  if (kind === 2) {
    // Block nesting (YAML indentation); bounded size.
    const m = Math.min(n, 1500);
    const lines = [];
    for (let i = 0; i < m; i++) lines.push(`${' '.repeat(i)}k:`);
    return `${lines.join('\n')} v\n${text}`;
  }
  // Unbalanced: only openers.
  return insertAt(text, rng.int(text.length + 1), rng.pick(['[', '{"a":', '- ']).repeat(n));
}

function duplicateKey(text, rng) {
  if (isYamlLike(text)) {
    const lines = positions(text, /^[ \t]*(?:- )?[A-Za-z_"]+[ \t]*:.*\n/gm);
    if (lines.length === 0) return text;
    const { index, match } = rng.pick(lines);
    const copy = match[0].replace(/^([ \t]*)- /, '$1  ');
    return insertAt(text, index + match[0].length, copy);
  }
  const members = positions(text, /"[^"\\\n]*"\s*:\s*(?:"(?:[^"\\\n]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)\s*,/g);
  if (members.length === 0) return text;
  const { index, match } = rng.pick(members);
  return insertAt(text, index + match[0].length, match[0]);
}

function swapType(text, rng) {
  const values = positions(text, /(:\s*)("(?:[^"\\\n]|\\.)*"|-?\d[\d.eE+-]*|true|false|null|\[\]|\{\})/g);
  if (values.length === 0) return text;
  const { index, match } = rng.pick(values);
  const start = index + match[1].length;
  return text.slice(0, start) + rng.pick(SCALARS) + text.slice(start + match[2].length);
}

function protoNames(text, rng) {
  const name = rng.pick(PROTO_NAMES);
  switch (rng.int(4)) {
    case 0: {
      // A tool (or call) named like an object key.
      const names = positions(text, /("name"\s*:\s*")([^"\\\n]*)(")|(^[ \t]*(?:- )?name:[ \t]*)(\S.*)$/gm);
      if (names.length === 0) return text;
      const { index, match } = rng.pick(names);
      const rep = match[1] !== undefined ? `${match[1]}${name}${match[3]}` : `${match[4]}${name}`;
      return text.slice(0, index) + rep + text.slice(index + match[0].length);
    }
    case 1: {
      // Every occurrence of one tool name, so calls and results keep agreeing.
      const names = positions(text, /mcp__[A-Za-z0-9]+__[A-Za-z0-9_-]+/g);
      if (names.length === 0) return text;
      const target = rng.pick(names).match[0];
      return text.split(target).join(name);
    }
    case 2: {
      // A polluting key.
      const payload = rng.pick([
        '{"polluted": 1}',
        '{"prototype": {"polluted": 1}}',
        '"polluted"',
        '[{"polluted": 1}]',
      ]);
      if (isYamlLike(text)) {
        const at = positions(text, /^([ \t]*)(- )?[A-Za-z_]+:/gm);
        if (at.length === 0) return `${name}: ${payload}\n${text}`;
        const { index, match } = rng.pick(at);
        const indent = match[1] + (match[2] ? '  ' : '');
        return insertAt(
          text,
          index,
          `${match[1]}${match[2] ?? ''}${name}: ${payload}\n${indent}`.replace(/- (.*)\n([ \t]*)$/, '- $1\n$2'),
        );
      }
      const objs = positions(text, /\{/g);
      if (objs.length === 0) return text;
      return insertAt(text, rng.pick(objs).index + 1, `"${name}": ${payload},`);
    }
    default: {
      // A key renamed.
      const keys = positions(text, /"([A-Za-z_]+)"(\s*:)|^([ \t]*(?:- )?)([A-Za-z_]+):/gm);
      if (keys.length === 0) return text;
      const { index, match } = rng.pick(keys);
      const rep = match[1] !== undefined ? `"${name}"${match[2]}` : `${match[3]}${name}:`;
      return text.slice(0, index) + rep + text.slice(index + match[0].length);
    }
  }
}

function yamlSpecials(text, rng) {
  switch (rng.int(5)) {
    case 0: {
      // Billion laughs (or a small, legal use of aliases).
      const levels = rng.pick([2, 4, 9]);
      const width = rng.pick([2, 9]);
      const lines = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
      for (let i = 1; i <= levels; i++)
        lines.push(
          `l${i}: &l${i} [${Array(width)
            .fill(`*l${i - 1}`)
            .join(', ')}]`,
        );
      return `${lines.join('\n')}\n${text}`;
    }
    case 1: {
      const values = positions(text, /^([ \t]*(?:- )?[A-Za-z_]+:[ \t]+)(.+)$/gm);
      if (values.length === 0) return `${rng.pick(YAML_SPECIALS)}\n${text}`;
      const { index, match } = rng.pick(values);
      return text.slice(0, index) + match[1] + rng.pick(YAML_SPECIALS) + text.slice(index + match[0].length);
    }
    case 2: {
      // Anchor a list item and repeat it (duplicate names through aliases).
      const items = positions(text, /^([ \t]*)- (?=[A-Za-z_]+:)/gm);
      if (items.length === 0) return text;
      const { index, match } = rng.pick(items);
      const anchored = insertAt(text, index + match[0].length, '&it ');
      const end = anchored.indexOf('\n', index);
      return end < 0 ? anchored : insertAt(anchored, end + 1, `${match[1]}- *it\n`.repeat(rng.pick([1, 3])));
    }
    case 3:
      return (
        rng.pick(['---\n', '%YAML 1.1\n---\n', '%TAG ! tag:example.com,2000:\n---\n', '']) +
        text +
        rng.pick(['\n---\nsecond: doc\n', '\n...\n', '\n--- |\n  text\n', ''])
      );
    default: {
      const i = text.indexOf('\n', rng.int(text.length + 1));
      return insertAt(text, i < 0 ? text.length : i + 1, `${rng.pick(['\t', ' ', '   '])}${rng.pick(YAML_SPECIALS)}\n`);
    }
  }
}

function jsonSyntax(text, rng) {
  const bits = [
    ',',
    ',,',
    '//c\n',
    '/*c*/',
    'NaN',
    'Infinity',
    "'s'",
    '"\\x41"',
    '"\\u12"',
    '"\\ud800\\udc00"',
    '"\\udc00"',
    '\u0000',
    '"a\nb"',
    ']',
    '}',
    '[',
    '{',
    ':',
    '"',
    '\\',
    '0x10',
    '01',
    '1.',
    '.5',
    '+1',
    '1e',
    '-',
  ];
  return insertAt(text, rng.int(text.length + 1), rng.pick(bits));
}

function wholeReplacement(_text, rng) {
  return rng.pick([
    '',
    ' ',
    '\n\n',
    '\ufeff',
    'null',
    '[]',
    '{}',
    '0',
    '"a string"',
    'true',
    '[null]',
    '[[]]',
    '[1, 2]',
    '{"tools": null}',
    '{"tools": {}}',
    '{"tools": [{}]}',
    '{"tools": [{"name": ""}]}',
    '{"tools": [{"name": 1}]}',
    '{"messages": []}',
    '{"messages": [{}]}',
    '[{"role": "nobody"}]',
    'tools: []',
    'tools:\n  - name: x',
    '- a\n- b',
    'just some words',
    '{"cases": []}',
    'name: s\ncases: []',
    '{"query": ""}',
    '{"query": null}',
  ]);
}

const BYTE_MUTATORS = [
  [4, bitFlips],
  [3, interestingBytes],
  [3, invalidUtf8],
  [6, truncate],
  [3, cutOut],
  [2, duplicateChunk],
  [3, splice],
  [2, encoding],
];

const TEXT_MUTATORS = [
  [12, injectEscapes],
  [3, longLine],
  [4, deepNesting],
  [5, duplicateKey],
  [5, swapType],
  [6, protoNames],
  [4, yamlSpecials],
  [3, jsonSyntax],
  [1, wholeReplacement],
];

/** Mutations that usually keep the input valid: hostile content rather than broken syntax. */
const GENTLE = [
  [12, { kind: 'text', f: injectEscapes }],
  [6, { kind: 'text', f: protoNames }],
  [2, { kind: 'text', f: longLine }],
  [1, { kind: 'bytes', f: encodingKept }],
];

function encodingKept(buf, rng) {
  return rng.chance(0.5)
    ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), buf])
    : Buffer.from(utf8(buf).replace(/\r?\n/g, '\r\n'));
}

const ALL = [
  ...BYTE_MUTATORS.map(([w, f]) => [w, { kind: 'bytes', f }]),
  ...TEXT_MUTATORS.map(([w, f]) => [w, { kind: 'text', f }]),
];

/**
 * Applies 1–4 mutations; returns the new bytes and the names of the
 * mutators applied (for the report of a failure).
 */
export function mutate(bytes, rng, ctx) {
  let buf = Buffer.from(bytes);
  const applied = [];
  const table = rng.chance(0.5) ? GENTLE : ALL;
  let n = 1;
  while (n < 4 && rng.chance(0.4)) n++;
  for (let k = 0; k < n; k++) {
    const m = rng.weighted(table);
    applied.push(m.f.name);
    buf = m.kind === 'bytes' ? Buffer.from(m.f(buf, rng, ctx)) : Buffer.from(m.f(utf8(buf), rng, ctx), 'utf8');
    // Keep inputs small enough for a quick run (the loaders' own size limit is tested apart).
    if (buf.length > 8_000_000) buf = buf.subarray(0, 8_000_000);
  }
  return { bytes: buf, applied };
}
