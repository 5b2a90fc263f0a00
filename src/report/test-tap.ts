/**
 * The TAP reporter (TAP version 13): one test point per case, in suite
 * order, failures with a YAML diagnostic block (values written as JSON,
 * which is valid YAML), skipped cases as `# SKIP`. Suite files appear as
 * comment lines.
 */
import { escapeText } from '../io/escape.js';
import { safeJson } from '../io/json-out.js';
import type { TestReport } from '../jobs/suite/types.js';
import { caseFailureText, suiteErrorText, summaryLine } from './test-text.js';

/** A test point description: one line, control characters escaped, `#` escaped (it starts a directive). */
function description(s: string): string {
  return escapeText(s.replace(/[\r\n]+/g, ' '))
    .replace(/\\/g, '\\\\')
    .replace(/#/g, '\\#');
}

function comment(s: string): string {
  return `# ${escapeText(s.replace(/[\r\n]+/g, ' '))}`;
}

export function renderTap(report: TestReport): string {
  const out = ['TAP version 13', `1..${report.summary.total + report.summary.errors}`];
  let n = 0;
  for (const suite of report.suites) {
    out.push(comment(suite.file));
    if (suite.error) {
      // An invalid suite is one failing test point, so a TAP consumer counts it.
      n++;
      out.push(`not ok ${n} - ${description(suite.file)}: invalid suite`);
      out.push('  ---');
      out.push(`  message: ${safeJson(suite.error.message)}`);
      out.push('  severity: fail');
      out.push(`  at: ${safeJson(suiteErrorText(suite.error).slice(0, -(suite.error.message.length + 2)))}`);
      out.push('  ...');
      continue;
    }
    for (const c of suite.cases) {
      n++;
      const name = description(c.name);
      if (c.status === 'passed') {
        out.push(`ok ${n} - ${name}`);
      } else if (c.status === 'skipped') {
        out.push(`ok ${n} - ${name} # SKIP${c.skip_reason ? ` ${description(c.skip_reason)}` : ''}`);
      } else {
        out.push(`not ok ${n} - ${name}`);
        out.push('  ---');
        out.push(`  message: ${safeJson(c.failures.map((f) => f.message).join('; '))}`);
        out.push('  severity: fail');
        out.push(`  at: ${safeJson(`${c.location.file}:${c.location.line}:${c.location.column}`)}`);
        out.push('  failures:');
        for (const f of c.failures) {
          out.push(`    - expectation: ${safeJson(f.expectation)}`);
          out.push(`      expected: ${safeJson(f.expected)}`);
          out.push(`      actual: ${safeJson(f.actual)}`);
        }
        out.push('  details:');
        for (const line of caseFailureText(c)) out.push(`    - ${safeJson(line)}`);
        out.push('  ...');
      }
    }
  }
  out.push(comment(summaryLine(report)));
  return `${out.join('\n')}\n`;
}
