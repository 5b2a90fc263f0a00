/** The JSON test reporter: the {@link TestReport} as it is, durations rounded to microseconds. */
import { JSON_SCHEMA_VERSION } from '../io/schema-version.js';
import type { TestReport } from '../jobs/suite/types.js';
import { safeJson } from '../io/json-out.js';

export function renderTestJson(report: TestReport): string {
  return `${safeJson(
    { schema_version: JSON_SCHEMA_VERSION, ...report },
    (key, value) => (key === 'duration_ms' && typeof value === 'number' ? Math.round(value * 1000) / 1000 : value),
    2,
  )}\n`;
}
