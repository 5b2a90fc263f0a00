import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker; most of our end-to-end
    // tests wait on child processes (the built CLI, MCP servers), so three
    // workers keep both cores busy.
    maxWorkers: 3,
  },
});
