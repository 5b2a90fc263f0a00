/**
 * Classifies one CLI run:
 * - `result`: exit 0 or 1 with sane output (valid JSON for `--json`, one JSON
 *   object per input line for `--batch`, no raw control characters in human
 *   output);
 * - `error`: exit 2 with exactly one `error:` line, nothing on stdout;
 * - `failure`: anything else — a crash, a stack trace, an internal error
 *   (exit 70), another exit code, a timeout, invalid JSON, raw control
 *   characters, a half-written output file.
 */

/** A stack frame or Node's internals in the output. */
export const STACK = /\bat .*\(.*:\d+:\d+\)|node:internal|^\s+at [^\n]*:\d+:\d+$/m;

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

function checkHuman(text, where, lineLimit = true) {
  const u = showUnsafe(text);
  if (u) return `raw control character in ${where}: ${u}`;
  if (!lineLimit) return null;
  const long = text.split('\n').find((l) => l.length > MAX_HUMAN_LINE);
  if (long !== undefined) return `a ${long.length}-character line in ${where}`;
  return null;
}

/** What is wrong with the output of a run that exited 0 or 1 (or 2 with a report), by its kind; null when sound. */
function reportProblem(run, r) {
  switch (run.output) {
    case 'json':
      return checkJson(r.stdout);
    case 'jsonl':
      return checkJsonl(r.stdout, run.batchLines);
    case 'xml':
      return checkXml(r.stdout);
    case 'tap':
      // TAP is read by programs: a test's whole name is kept, but still escaped.
      return checkHuman(r.stdout, 'stdout', false);
    case 'none': {
      // With --output the human report still prints (for the CI log).
      const p = checkHuman(r.stdout, 'stdout');
      if (p) return p;
      if (!r.outFile?.exists) return 'no output file';
      if (run.reportOutput === 'json') return checkJson(r.outFile.text);
      if (run.reportOutput === 'xml') return checkXml(r.outFile.text);
      if (run.reportOutput === 'tap') return checkHuman(r.outFile.text, 'the TAP file', false);
      return null;
    }
    default:
      return checkHuman(r.stdout, 'stdout');
  }
}

/**
 * @param run `{argv, output: 'human'|'json'|'jsonl'|'xml'|'tap'|'none', batchLines?, reportOutput?}`
 * @param r `{code, stdout, stderr, timedOut?, crash?, signal?, outFile?: {exists, text, leftovers}, inputChanged?}`
 * @returns `{verdict: 'result'|'error'|'failure', reason}`
 */
export function classify(run, given) {
  const fail = (reason) => ({ verdict: 'failure', reason });
  // With colors forced, our own SGR sequences are expected; any other escape is not.
  const r = run.color ? { ...given, stdout: stripSgr(given.stdout), stderr: stripSgr(given.stderr) } : given;
  if (r.timedOut) return fail('timeout');
  if (r.crash) return fail(`crash: ${r.crash}`);
  if (r.signal) return fail(`killed by ${r.signal}`);
  if (STACK.test(r.stderr) || STACK.test(r.stdout)) return fail('stack trace in the output');
  if (r.code === 70 || /internal error/.test(r.stderr)) return fail(`internal error: ${r.stderr.split('\n')[0]}`);
  if (r.code !== 0 && r.code !== 1 && r.code !== 2) return fail(`exit code ${r.code}`);
  // On a terminal, the progress line (src/cli/progress.ts) redraws itself with CR + erase-line, its
  // text escaped: that one sequence is ours; anything else raw on stderr is still a failure.
  const errUnsafe = checkHuman(run.tty ? r.stderr.replaceAll('\r\u001b[K', '') : r.stderr, 'stderr');
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
