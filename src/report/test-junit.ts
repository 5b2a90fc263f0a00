/**
 * The JUnit XML reporter, in the shape GitHub Actions reporters, GitLab and
 * Jenkins read: `<testsuites>` holding one `<testsuite>` per suite file, a
 * `<testcase>` per case with `<failure>` or `<skipped>`. Times are seconds.
 * `classname` is the suite file without its extension and with dots
 * replaced (Jenkins reads dots as package separators); `file` and `line`
 * point at the case in the suite.
 */
import type { TestReport } from '../jobs/suite/types.js';
import { caseFailureText, suiteErrorText } from './test-text.js';
import { xmlAttr, xmlText } from './xml.js';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function classname(file: string): string {
  return file.replace(/\.(ya?ml|json)$/i, '').replace(/\./g, '_');
}

export function renderJUnit(report: TestReport): string {
  const s = report.summary;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  // The Jenkins JUnit schema (fixtures/junit/jenkins-junit-10.xsd, which CI tools validate against) has no `skipped`
  // on <testsuites> and no `line` on <testsuite>; an invalid suite counts as one test with an error.
  out.push(
    `<testsuites name="toolsearch" tests="${s.total + s.errors}" ` +
      `failures="${s.failed}" errors="${s.errors}" time="${seconds(s.duration_ms)}">`,
  );
  for (const suite of report.suites) {
    if (suite.error) {
      const l = suite.error.location;
      out.push(
        `  <testsuite name="${xmlAttr(suite.name)}" tests="1" failures="0" ` +
          `errors="1" skipped="0" time="0.000" file="${xmlAttr(suite.file)}">`,
      );
      out.push(
        `    <testcase name="load the suite" classname="${xmlAttr(classname(suite.file))}" ` +
          `file="${xmlAttr(l.file)}"${l.line > 0 ? ` line="${l.line}"` : ''} time="0.000">`,
      );
      out.push(
        `      <error message="${xmlAttr(suite.error.message)}" ` +
          `type="invalid-suite">${xmlText(suiteErrorText(suite.error))}</error>`,
      );
      out.push('    </testcase>');
      out.push('  </testsuite>');
      continue;
    }
    const failed = suite.cases.filter((c) => c.status === 'failed').length;
    const skipped = suite.cases.filter((c) => c.status === 'skipped').length;
    out.push(
      `  <testsuite name="${xmlAttr(suite.name)}" tests="${suite.cases.length}" failures="${failed}" errors="0" ` +
        `skipped="${skipped}" time="${seconds(suite.duration_ms)}" file="${xmlAttr(suite.file)}">`,
    );
    for (const c of suite.cases) {
      const attrs =
        `name="${xmlAttr(c.name)}" classname="${xmlAttr(classname(suite.file))}" ` +
        `file="${xmlAttr(c.location.file)}" line="${c.location.line}" time="${seconds(c.duration_ms)}"`;
      if (c.status === 'passed') {
        out.push(`    <testcase ${attrs}/>`);
      } else if (c.status === 'skipped') {
        out.push(`    <testcase ${attrs}>`);
        out.push(`      <skipped${c.skip_reason ? ` message="${xmlAttr(c.skip_reason)}"` : ''}/>`);
        out.push('    </testcase>');
      } else {
        const first = c.failures[0]!;
        const message =
          c.failures.length === 1 ? first.message : `${first.message} (and ${c.failures.length - 1} more)`;
        const body = [`${c.location.file}:${c.location.line}:${c.location.column}`, ...caseFailureText(c)].join('\n');
        out.push(`    <testcase ${attrs}>`);
        out.push(
          `      <failure message="${xmlAttr(message)}" ` +
            `type="${xmlAttr(first.expectation)}">${xmlText(body)}</failure>`,
        );
        out.push('    </testcase>');
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/**
 * The JUnit document for a run that could not start (a suite that does not
 * load: exit 2): one `<testcase>` with an `<error>`, so a CI step that
 * publishes the report (`if: always()`) shows why instead of finding no file.
 */
export function renderJUnitError(message: string, location?: { file: string; line: number; column: number }): string {
  const where = location ? `${location.file}${location.line > 0 ? `:${location.line}:${location.column}` : ''}` : '';
  const fileAttr = location ? ` file="${xmlAttr(location.file)}"` : '';
  const lineAttr = location && location.line > 0 ? ` line="${location.line}"` : '';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="toolsearch" tests="1" failures="0" errors="1" time="0.000">',
    `  <testsuite name="toolsearch" tests="1" failures="0" errors="1" skipped="0" time="0.000"${fileAttr}>`,
    `    <testcase name="load the suites" classname="toolsearch"${fileAttr}${lineAttr} time="0.000">`,
    `      <error message="${xmlAttr(message)}" ` +
      `type="invalid-suite">${xmlText(where ? `${where}: ${message}` : message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
