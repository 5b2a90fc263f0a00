/**
 * The checks the CLI runs before loading the TUI. No React or Ink here: this
 * module is imported statically by command files.
 */
import { UsageError } from '../io/errors.js';
import { loadInk } from './ink.js';

interface MaybeTty {
  readonly isTTY?: boolean;
}

/**
 * Throws a {@link UsageError} (exit 2) unless both stdin and stdout are
 * terminals; `alternative` tells the user what to run instead.
 */
export function assertInteractive(
  io: { readonly stdin: unknown; readonly stdout: unknown },
  what: string,
  alternative: string,
): void {
  const inTty = (io.stdin as MaybeTty).isTTY === true;
  const outTty = (io.stdout as MaybeTty).isTTY === true;
  if (inTty && outTty) return;
  const missing =
    !inTty && !outTty
      ? 'stdin and stdout are not terminals'
      : !inTty
        ? 'stdin is not a terminal'
        : 'stdout is not a terminal';
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

/** The variables by which Ink (through its is-in-ci dependency) decides it runs in CI. */
const CI_VARIABLES = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/**
 * Imports Ink with `CI` and `CONTINUOUS_INTEGRATION` hidden, then restores
 * them. Ink reads them once, when it is first imported, and in "CI" renders
 * nothing until the app exits — a blank screen for a TUI that only ever runs
 * on an interactive terminal (assertInteractive), where a CI variable left in
 * a developer's shell or a CI job's `script`/tmux session must not matter.
 * Call before anything imports Ink; later imports reuse the module.
 */
export async function importInkForTerminal(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const hidden = CI_VARIABLES.filter((k) => k in env).map((k) => [k, env[k]] as const);
  for (const [k] of hidden) delete env[k];
  try {
    await loadInk();
  } finally {
    for (const [k, v] of hidden) env[k] = v;
  }
}

/** Everything the CLI does before importing a TUI module: React's production build, Ink outside CI mode. */
export async function prepareTui(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  preferProductionReact(env);
  await importInkForTerminal(env);
}
