/**
 * The human test reporter: per suite file, a line per case (✓ passed,
 * ✗ failed, - skipped), the account of each failure, and as its last line
 * exactly `N passed, N failed` (plus `, N skipped` when any).
 */
import type { Style } from '../render/color.js';
import { escapeText, inlineText } from '../io/escape.js';
import type { TestReport } from '../jobs/suite/types.js';
import { caseFailureText, suiteErrorText, summaryLine } from './test-text.js';

export interface HumanOptions {
  readonly style: Style;
}

export function renderTestHuman(report: TestReport, { style }: HumanOptions): string[] {
  const out: string[] = [];
  for (const suite of report.suites) {
    if (suite.error) {
      out.push(`${style.bold(escapeText(suite.file))} ${style.red('invalid suite, not run:')}`);
      out.push(`  ${style.red('✗')} ${inlineText(suiteErrorText(suite.error))}`);
      out.push('');
      continue;
    }
    const counts = `${suite.cases.length} case${suite.cases.length === 1 ? '' : 's'}`;
    const name = suite.name !== suite.file ? ` — ${inlineText(suite.name)}` : '';
    out.push(
      style.bold(`${escapeText(suite.file)}${name}`) +
        style.dim(` (${counts}${suite.catalog ? `, catalog ${escapeText(suite.catalog)}` : ''})`),
    );
    for (const c of suite.cases) {
      const name = inlineText(c.name);
      if (c.status === 'passed') {
        out.push(`  ${style.green('✓')} ${name}${c.updated ? style.yellow(' (exact updated)') : ''}`);
      } else if (c.status === 'skipped') {
        const skipped = `(skipped${c.skip_reason ? `: ${inlineText(c.skip_reason)}` : ''})`;
        out.push(`  ${style.yellow('-')} ${name} ${style.dim(skipped)}`);
      } else {
        const at = `${escapeText(c.location.file)}:${c.location.line}:${c.location.column}`;
        out.push(`  ${style.red('✗')} ${name} ${style.dim(at)}`);
        for (const line of caseFailureText(c)) out.push(`      ${line}`);
      }
    }
    if (suite.updated) out.push(style.yellow(`  updated ${escapeText(suite.file)}`));
    out.push('');
  }
  if (report.summary.updated > 0) {
    const n = report.summary.updated;
    out.push(`${n} recorded case${n === 1 ? '' : 's'} updated`);
  }
  out.push(summaryLine(report));
  return out;
}
