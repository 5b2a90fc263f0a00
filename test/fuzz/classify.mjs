/**
 * Classifies one CLI run:
 * - `result`: exit 0 or 1 with sane output (valid JSON for `--json`, one JSON
 *   object per input line for `--batch`, one `{source, report|error}` per
 *   session for bulk `--jsonl`, a well-formed HTML page that runs nothing but
 *   its own script for `--html`, no raw control characters in human output);
 * - `error`: exit 2 with exactly one `error:` line, nothing on stdout;
 * - `failure`: anything else — a crash, a stack trace, an internal error
 *   (exit 70), another exit code, a timeout, invalid JSON, raw control
 *   characters, a half-written output file.
 */

import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';

/**
 * A stack frame (`at fn (file.js:line:col)`: one token, then a script's location in parentheses;
 * or a frame line of its own) or Node's internals in the output. A message that says `… (first at
 * s.json:4:5)` after the word "at" elsewhere on a long line (an HTML report is one) is no stack.
 */
export const STACK = new RegExp(
  [
    String.raw`\bat (?:async )?(?:new )?[^\s()]+ \((?:[^()\n]*\.[cm]?[jt]sx?|node:[^()\n]*):\d+:\d+\)`,
    'node:internal',
    String.raw`^\s+at [^\n]*:\d+:\d+$`,
  ].join('|'),
  'm',
);

/**
 * What a terminal could interpret: C0 controls except the line feed, DEL, C1
 * controls, and bidirectional embedding, override and isolate controls, line
 * and paragraph separators.
 */
export const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Characters XML 1.0 forbids (a JUnit file with them does not parse). */
const XML_ILLEGAL = new RegExp(
  String.raw`[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|` +
    String.raw`(?<![\ud800-\udbff])[\udc00-\udfff]`,
);

/** A human line longer than this was not fitted or truncated. */
export const MAX_HUMAN_LINE = 5_000;

function showUnsafe(text) {
  const m = UNSAFE.exec(text);
  if (!m) return '';
  const at = m.index;
  return (
    `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} ` +
    `at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 20))}`
  );
}

const SGR = /\u001b\[[0-9;]*m/g;

/** Text without SGR color sequences. */
export function stripSgr(text) {
  return text.replace(SGR, '');
}

/**
 * Terminal stderr without the progress line: each `CR ESC[K` erases what the last one drew (a drawn
 * text runs to the next `CR ESC[K`, never past a line feed: the progress text is one escaped line).
 * Raw controls anywhere else are left for the checks.
 */
export function dropProgress(text) {
  return text.replace(/\r\u001b\[K[^\r\n]*(?=\r\u001b\[K)/g, '').replaceAll('\r\u001b[K', '');
}

/** Lines of an input, as `--batch` counts them: split on LF, a final LF starts no line. */
export function batchLineCount(bytes) {
  if (bytes.length === 0) return 0;
  let n = 0;
  for (const b of bytes) if (b === 0x0a) n++;
  return bytes[bytes.length - 1] === 0x0a ? n : n + 1;
}

function checkJson(stdout) {
  try {
    JSON.parse(stdout);
  } catch (err) {
    return `invalid JSON on stdout: ${err.message}`;
  }
  // JSON output escapes what a terminal would act on (the text decodes unchanged).
  return checkHuman(stdout, 'the JSON output', false);
}

/**
 * `import`'s YAML catalog: data (a tool name is as long as the server and the key made it), so only its comment
 * lines, written for a person, are held to the line limit; it parses, and holds no raw control characters.
 */
function checkCatalogYaml(text, where) {
  try {
    parseYaml(text);
  } catch (err) {
    return `invalid YAML in ${where}: ${String(err.message).split('\n')[0]}`;
  }
  const comments = text
    .split('\n')
    .filter((l) => l.startsWith('#'))
    .join('\n');
  return checkHuman(text, where, false) ?? checkHuman(comments, `the comments of ${where}`);
}

function checkJsonl(stdout, expected) {
  const lines = stdout.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (expected !== undefined && lines.length !== expected)
    return `--batch: ${lines.length} output lines for ${expected} input lines`;
  for (let i = 0; i < lines.length; i++) {
    let v;
    try {
      v = JSON.parse(lines[i]);
    } catch (err) {
      return `--batch: line ${i + 1} is not JSON: ${err.message}`;
    }
    if (
      v === null ||
      typeof v !== 'object' ||
      (!Array.isArray(v.matches) && v.matches !== null && typeof v.error !== 'string')
    ) {
      return `--batch: line ${i + 1} is neither {"matches"} nor {"error"}`;
    }
  }
  return checkHuman(stdout, 'the --batch output', false);
}

function checkXml(text) {
  if (!text.startsWith('<?xml')) return 'JUnit output does not start with <?xml';
  const m = XML_ILLEGAL.exec(text);
  if (m) return `a character XML forbids (U+${m[0].charCodeAt(0).toString(16)}) in the JUnit output`;
  // Tabs aside, what a terminal acts on is written as character references.
  return checkHuman(text.replace(/\t/g, ' '), 'the JUnit output', false);
}

/** Bulk `simulate --jsonl`: one `{source, report}` or `{source, error}` object per line. */
function checkSessionsJsonl(stdout) {
  const lines = stdout.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    let v;
    try {
      v = JSON.parse(lines[i]);
    } catch (err) {
      return `--jsonl: line ${i + 1} is not JSON: ${err.message}`;
    }
    const ok =
      v !== null &&
      typeof v === 'object' &&
      v.source !== null &&
      typeof v.source === 'object' &&
      ((typeof v.report === 'object' && v.report !== null) || typeof v.error === 'string');
    if (!ok) return `--jsonl: line ${i + 1} is neither {source, report} nor {source, error}`;
  }
  return checkHuman(stdout, 'the --jsonl output', false);
}

/** Elements that hold no content (src/report/html/html.ts writes no closing tag for them). */
const HTML_VOID = new Set(['meta', 'br', 'hr', 'input', 'col', 'wbr']);
/** A character reference as the reports write them; any other `&` is raw text that escaped escaping. */
const BARE_AMP = /&(?![a-z]+;|#\d+;|#x[0-9a-fA-F]+;)/;
const HTML_HEAD = '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';

const cspHash = (s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/**
 * What is wrong with an HTML report (null when sound), checked strictly
 * against how the reports are built (src/report/html/): our doctype and
 * head; a Content-Security-Policy of `default-src 'none'`; exactly one
 * `<style>` and one `<script>`, each the one the policy allows by hash (an
 * injected script, even one that sneaked past escaping, has another hash);
 * every other tag lower-case, closed in order (void elements aside), with
 * attributes `name="value"` whose values hold no raw `"`, `<`, `>` or bare
 * `&`; no event handler, `src`, `style` or `action` attribute; every `href`
 * a fragment (`#…`, so no `javascript:` or network URL); text with no raw
 * `<`, `>` or bare `&`; and no raw control or reordering character.
 */
export function checkHtml(text) {
  if (!text.startsWith(HTML_HEAD)) return "the HTML does not start with the reports' doctype and head";
  if (!text.endsWith('</html>\n')) return 'the HTML does not end with </html>';
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(text);
  if (!csp || !csp[1].startsWith("default-src 'none';")) return "the HTML has no CSP of default-src 'none'";
  const allowed = {
    style: /style-src ('sha256-[^']+')/.exec(csp[1])?.[1],
    script: /script-src ('sha256-[^']+')/.exec(csp[1])?.[1],
  };
  const counts = { script: 0, style: 0 };
  const stack = [];
  let i = '<!doctype html>\n'.length;
  const bad = (m) => `malformed HTML at ${i}: ${m}: ${JSON.stringify(text.slice(Math.max(0, i - 60), i + 60))}`;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = text.slice(i, lt < 0 ? text.length : lt);
    const amp = BARE_AMP.exec(chunk);
    if (amp) {
      i += amp.index;
      return bad('a bare & in text');
    }
    const gt = chunk.indexOf('>');
    if (gt >= 0) {
      i += gt;
      return bad('a bare > in text');
    }
    if (lt < 0) break;
    i = lt;
    const close = /^<\/([a-z][a-z0-9-]*)>/.exec(text.slice(i, i + 64));
    if (close) {
      const top = stack.pop();
      if (top !== close[1]) return bad(`</${close[1]}> closes <${top ?? 'nothing'}>`);
      i += close[0].length;
      continue;
    }
    // (a tag ends at its first `>`: no attribute value holds one; a tool's name may make it long)
    const end = text.indexOf('>', i);
    const open = /^<([a-z][a-z0-9-]*)((?:\s+[a-zA-Z][a-zA-Z0-9-]*(?:="[^"<>]*")?)*)>/.exec(
      text.slice(i, end < 0 ? text.length : end + 1),
    );
    if (!open) return bad('not a tag the reports write');
    const [whole, tag, attrs] = open;
    for (const [, name, value = ''] of attrs.matchAll(/([a-zA-Z][a-zA-Z0-9-]*)(?:="([^"]*)")?/g)) {
      if (/^on/i.test(name)) return bad(`an event handler attribute (${name})`);
      if (/^(src|srcdoc|srcset|action|formaction|style|data|xmlns|poster|background)$/i.test(name))
        return bad(`an attribute the reports never write (${name})`);
      if (/^(xlink:)?href$/i.test(name) && !value.startsWith('#')) return bad(`a link out of the page (${value})`);
      if (BARE_AMP.test(value)) return bad('a bare & in an attribute');
    }
    i += whole.length;
    if (tag === 'script' || tag === 'style') {
      counts[tag]++;
      const end = text.indexOf(`</${tag}>`, i);
      if (end < 0) return bad(`<${tag}> not closed`);
      if (cspHash(text.slice(i, end)) !== allowed[tag]) return bad(`a <${tag}> the CSP does not allow (not ours)`);
      i = end + tag.length + 3;
      continue;
    }
    if (!HTML_VOID.has(tag)) stack.push(tag);
  }
  if (stack.length > 0) return `malformed HTML: <${stack.join('>, <')}> not closed`;
  if (counts.script !== 1 || counts.style !== 1 || (text.match(/<script/gi) ?? []).length !== 1)
    return `the HTML has ${counts.script} scripts and ${counts.style} stylesheets, not one of each`;
  return checkHuman(text, 'the HTML', false);
}

function checkHuman(text, where, lineLimit = true) {
  const u = showUnsafe(text);
  if (u) return `raw control character in ${where}: ${u}`;
  if (!lineLimit) return null;
  const long = text.split('\n').find((l) => l.length > MAX_HUMAN_LINE);
  if (long !== undefined) return `a ${long.length}-character line in ${where}`;
  return null;
}

/** What is wrong with a report of this kind (stdout, or the file a run was asked to write); null when sound. */
function outputProblem(kind, text, where, r, run) {
  switch (kind) {
    case 'json':
      return checkJson(text);
    case 'jsonl':
      return checkJsonl(text, run.batchLines);
    case 'sessions':
      return checkSessionsJsonl(text);
    case 'xml':
      return checkXml(text);
    case 'html':
      return checkHtml(text);
    case 'catalog':
      return checkCatalogYaml(text, where === 'stdout' ? 'the YAML catalog' : where);
    case 'tap':
      // TAP is read by programs: a test's whole name is kept, but still escaped.
      return checkHuman(text, where, false);
    default:
      return checkHuman(text, where, where === 'stdout');
  }
}

/** What is wrong with the output of a run that exited 0 or 1 (or 2 with a report), by its kind; null when sound. */
function reportProblem(run, r) {
  // With --output the human report still prints (for the CI log): `none` is that.
  const p = outputProblem(run.output, r.stdout, 'stdout', r, run);
  if (p) return p;
  if (!run.outFile) return null;
  if (!r.outFile?.exists) return 'no output file';
  return outputProblem(run.reportOutput, r.outFile.text, 'the output file', r, run);
}

/**
 * @param run `{argv, output: 'human'|'json'|'jsonl'|'xml'|'tap'|'catalog'|'none', batchLines?, reportOutput?}`
 * @param r `{code, stdout, stderr, timedOut?, crash?, signal?, outFile?: {exists, text, leftovers}, inputChanged?}`
 * @returns `{verdict: 'result'|'error'|'failure', reason}`
 */
export function classify(run, given) {
  const fail = (reason) => ({ verdict: 'failure', reason });
  // With colors forced, our own SGR sequences are expected; any other escape is not.
  const colorless = run.color ? { ...given, stdout: stripSgr(given.stdout), stderr: stripSgr(given.stderr) } : given;
  // On a terminal, the progress line (src/cli/progress.ts) redraws itself with CR + erase-line, its
  // text escaped, and is erased before anything else is written: what stays on the screen is the rest.
  const r = run.tty ? { ...colorless, stderr: dropProgress(colorless.stderr) } : colorless;
  if (r.timedOut) return fail('timeout');
  if (r.crash) return fail(`crash: ${r.crash}`);
  if (r.signal) return fail(`killed by ${r.signal}`);
  if (STACK.test(r.stderr) || STACK.test(r.stdout)) return fail('stack trace in the output');
  if (r.code === 70 || /internal error/.test(r.stderr)) return fail(`internal error: ${r.stderr.split('\n')[0]}`);
  if (r.code !== 0 && r.code !== 1 && r.code !== 2) return fail(`exit code ${r.code}`);
  const errUnsafe = checkHuman(r.stderr, 'stderr');
  if (errUnsafe) return fail(errUnsafe);
  if (r.inputChanged) return fail('an input file was written');
  if (r.outFile?.leftovers?.length)
    return fail(`temporary files left beside the output: ${r.outFile.leftovers.join(', ')}`);

  if (r.code === 2) {
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    // A bulk replay (simulate over many sessions) writes its aggregate, then exits 2 when a session
    // failed to read (src/cli/commands/simulate-bulk.ts): the output must then be sane, not absent.
    const bulk =
      run.argv[0] === 'simulate' && errors.length === 1 && /^error: \d+ of \d+ sessions failed to read/.test(errors[0]);
    // `test` reports an invalid suite as an errored suite in every reporter and exits 2 at the end
    // (src/cli/commands/test.ts): its report (stdout, or the --output file) must then be sound.
    const errored = run.argv[0] === 'test' && errors.length >= 1 && (r.stdout !== '' || r.outFile?.exists === true);
    if (bulk || errored) {
      const problem = reportProblem(run, r);
      return problem ? fail(problem) : { verdict: 'error', reason: errors[0] };
    }
    if (r.stdout !== '') return fail('exit 2, yet output on stdout');
    // `toolsearch help <unknown>`: commander shows the usage on stderr.
    if (errors.length === 0 && r.stderr.startsWith('Usage: toolsearch'))
      return { verdict: 'error', reason: 'usage shown' };
    if (errors.length !== 1) return fail(`exit 2 with ${errors.length} "error:" lines on stderr`);
    if (r.outFile?.exists && !r.outFile.existedBefore) {
      // Only a JUnit report may be written on exit 2: one <error> saying why the suites did not load.
      if (run.reportOutput !== 'xml') return fail('exit 2, yet the output file was written');
      const bad = checkXml(r.outFile.text);
      if (bad) return fail(`exit 2 with a JUnit error report that is not sound: ${bad}`);
      if (!/<testsuites name="toolsearch" tests="1" failures="0" errors="1"/.test(r.outFile.text))
        return fail('exit 2, yet the JUnit file is not an error report');
    }
    return { verdict: 'error', reason: errors[0] };
  }

  // Exit 0 or 1: the output must be sane.
  const problem = reportProblem(run, r);
  if (problem) return fail(problem);
  return { verdict: 'result', reason: `exit ${r.code}` };
}
