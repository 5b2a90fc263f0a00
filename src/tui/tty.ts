/**
 * The checks the CLI runs before loading the TUI. No React or Ink here: this
 * module is imported statically by command files.
 */
import { UsageError } from '../errors.js';

interface MaybeTty {
  readonly isTTY?: boolean;
}

/**
 * Throws a {@link UsageError} (exit 2) unless both stdin and stdout are
 * terminals; `alternative` tells the user what to run instead.
 */
export function assertInteractive(io: { readonly stdin: unknown; readonly stdout: unknown }, what: string, alternative: string): void {
  const inTty = (io.stdin as MaybeTty).isTTY === true;
  const outTty = (io.stdout as MaybeTty).isTTY === true;
  if (inTty && outTty) return;
  const missing = !inTty && !outTty ? 'stdin and stdout are not terminals' : !inTty ? 'stdin is not a terminal' : 'stdout is not a terminal';
  throw new UsageError(`${what} needs an interactive terminal (${missing}); use ${alternative} instead`);
}

/**
 * Makes the TUI load React's production build, several times faster per
 * keystroke than the development build that an unset NODE_ENV selects. Call
 * before importing the TUI; an explicit NODE_ENV is left alone.
 */
export function preferProductionReact(env: NodeJS.ProcessEnv = process.env): void {
  env.NODE_ENV ??= 'production';
}
