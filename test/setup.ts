// Pinned environment for every test: no colors unless a test asks for them.
process.env.NO_COLOR = '1';
delete process.env.FORCE_COLOR;

// Ink reads CI / CONTINUOUS_INTEGRATION once, when first imported, and then
// renders nothing until exit. The CLI imports it through prepareTui, which
// hides them (test/tui/ci-env.test.ts proves that in a fresh process); the TUI
// tests import Ink directly, so the CI runner's variables are dropped here, as
// on a developer's machine. Whether this is a CI run is kept for the tests that are required there
// (test/cli/completion-shells.test.ts).
if (process.env.CI === 'true') process.env.TOOLSEARCH_TEST_CI = 'true';
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
