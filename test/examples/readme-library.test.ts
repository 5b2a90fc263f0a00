/**
 * README "Library": the replay example runs as written, against the built
 * package (`toolsearch/formats`, `toolsearch/simulate` through the package's
 * own exports), and prints what its comment says.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('README library example', () => {
  it('runs and prints the outcome its comment promises', () => {
    const readme = fs.readFileSync(`${root}README.md`, 'utf8');
    const m = /<!-- example: library-replay[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);
    expect(m).not.toBeNull();
    const code = m![1]!;
    const promised = /\/\/ (ai-sdk .*)\n$/.exec(code)![1]!;
    // --input-type=module -e resolves `toolsearch/...` from the working directory: the package itself.
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
    expect(out.trim()).toBe(promised);
  });
});
