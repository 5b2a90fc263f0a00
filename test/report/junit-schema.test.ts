// The JUnit output of the BUILT CLI (`npm run build` first) validates against
// the Jenkins JUnit schema (fixtures/junit/jenkins-junit-10.xsd), with
// libxml2's validator (xmllint-wasm: libxml2 compiled to WebAssembly, so CI
// needs nothing beyond npm): passing, failing and skipped cases, an invalid
// suite beside valid ones, and a run that cannot start.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { run } from '../cli/helpers.js';

const XSD = readFileSync(new URL('../../fixtures/junit/jenkins-junit-10.xsd', import.meta.url), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-junit-xsd-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function schemaErrors(xml: string): Promise<string[]> {
  const r = await validateXML({
    xml: { fileName: 'junit.xml', contents: xml },
    schema: { fileName: 'junit.xsd', contents: XSD },
  });
  return r.errors.map((e) => e.message);
}

describe('JUnit output against the Jenkins JUnit schema', () => {
  it(
    'the schema check itself rejects what the old output had (skipped on <testsuites>, line on ' + '<testsuite>)',
    async () => {
      const old =
        '<?xml version="1.0"?>\n<testsuites tests="1" skipped="0"><testsuite name="s" ' +
        'tests="1" line="3"><testcase name="c"/></testsuite></testsuites>\n';
      expect(await schemaErrors(old)).toEqual([
        "Schemas validity error : Element 'testsuites', attribute 'skipped': The attribute 'skipped' is not allowed.",
        "Schemas validity error : Element 'testsuite', attribute 'line': The attribute 'line' is not allowed.",
      ]);
    },
  );

  it.each([
    [
      'passing, failing and skipped cases',
      ['fixtures/suites/failing/search-failures.yaml', 'fixtures/suites/select.json'],
      1,
    ],
    [
      'an invalid suite beside a valid one',
      ['fixtures/suites/invalid/unknown-key.yaml', 'fixtures/suites/select.json'],
      2,
    ],
    ['a suite that names a missing catalog', ['fixtures/suites/invalid/missing-catalog.yaml'], 2],
  ] as const)('%s', async (_label, suites, code) => {
    const out = join(tmp, `${suites.length}-${code}-${Math.random().toString(36).slice(2)}.xml`);
    const r = await run(['test', ...suites, '--reporter', 'junit', '--output', out]);
    expect(r.code).toBe(code);
    expect(await schemaErrors(readFileSync(out, 'utf8'))).toEqual([]);
  });

  it('a run that cannot start (no file matches) still writes a valid report', async () => {
    const r = await run(['test', 'fixtures/suites/*.toml', '--reporter', 'junit']);
    expect(r.code).toBe(2);
    const out = join(tmp, 'none.xml');
    const w = await run(['test', 'fixtures/suites/nope.yaml', '--reporter', 'junit', '--output', out]);
    expect(w.code).toBe(2);
    expect(await schemaErrors(readFileSync(out, 'utf8'))).toEqual([]);
  });
});
