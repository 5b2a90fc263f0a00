// Pinned environment for every test: no colors unless a test asks for them.
process.env.NO_COLOR = '1';
delete process.env.FORCE_COLOR;

// The TUI tests import Ink directly (the CLI goes through prepareTui): import
// it the same way, so a CI variable in the environment (as on the CI runner)
// does not switch Ink to its render-only-at-exit CI mode.
if ('CI' in process.env || 'CONTINUOUS_INTEGRATION' in process.env) {
  const { importInkForTerminal } = await import('../src/tui/tty.js');
  await importInkForTerminal();
}
