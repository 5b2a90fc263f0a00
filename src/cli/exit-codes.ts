/**
 * The CLI's exit codes, defined once (exit.ts maps an outcome to one; process-io.ts exits 74 when stdout
 * fails; start.ts answers a bare `--version`):
 *
 * | code | meaning |
 * |---|---|
 * | 0  | ok (also `--help`, `--version`, and a closed stdout pipe) |
 * | 1  | an expectation or check failed (`--expect*`, `--strict`, `--expect-same`, `--fail-on-violation`) |
 * | 2  | bad input or usage: unreadable or invalid files, bad flag values, conflicting flags, invalid `--args`, a
 * catalog the reference rejects |
 * | 70 | an internal error (a bug: please report it); the stack is printed with `TOOLSEARCH_DEBUG=1` (70 is
 * EX_SOFTWARE of sysexits.h) |
 * | 74 | standard output could not be written (a full disk, `>/dev/full`): one line on stderr (EX_IOERR of
 * sysexits.h). A failing `--output` file is 2 |
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 70;
export const EXIT_IO = 74;
