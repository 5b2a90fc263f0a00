/**
 * Runs the CLI in this process (`main(argv, io)` with collected output): the
 * same code path as the binary minus process start-up, for the many CLI
 * cases that do not need a real process. A few tests per command still spawn
 * the built binary (`../cli/helpers.ts`).
 */
import { Readable } from 'node:stream';
import { main } from '../../../src/cli/main.js';

export interface InProcResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runIn(argv: readonly string[], env: Record<string, string> = {}): Promise<InProcResult> {
  let stdout = '';
  let stderr = '';
  const code = await main([...argv], {
    stdout: { write: (s: string) => ((stdout += s), true), isTTY: false },
    stderr: { write: (s: string) => ((stderr += s), true), isTTY: false },
    stdin: Readable.from([]),
    env: { NO_COLOR: '1', ...env },
  });
  return { code, stdout, stderr };
}
