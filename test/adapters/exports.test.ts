// The package's subpath exports resolve to the built modules (`npm run build` first).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('package exports', () => {
  it('toolsearch/ai-sdk, toolsearch/mcp and toolsearch/tokens resolve by name', () => {
    const code =
      `
      const a = await import('toolsearch/ai-sdk');
      const m = await import('toolsearch/mcp');
      const t = await import('toolsearch/tokens');
      console.log([typeof a.createToolSearch, typeof m.listMcpTools, typeof m.loadCatalogSpecs, typeof ` +
      `t.accountTokens].join(' '));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
    expect(out.trim()).toBe('function function function function');
  });
});
