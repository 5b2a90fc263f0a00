/**
 * A tiny ANSI color helper (no dependency). Whether colors are on is decided
 * once per stream by {@link colorEnabled}; a disabled {@link Style} returns
 * its input unchanged, so renderers never test for color themselves.
 */

/** A set of text styles; all are identity functions when colors are off. */
export interface Style {
  readonly enabled: boolean;
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly blue: (s: string) => string;
  readonly magenta: (s: string) => string;
  readonly cyan: (s: string) => string;
}

function sgr(open: number, close: number): (s: string) => string {
  return (s) => (s === '' ? s : `\x1b[${open}m${s}\x1b[${close}m`);
}

const identity = (s: string): string => s;

/** Styles that color when `enabled`, and do nothing otherwise. */
export function createStyle(enabled: boolean): Style {
  if (!enabled) {
    return {
      enabled,
      bold: identity,
      dim: identity,
      red: identity,
      green: identity,
      yellow: identity,
      blue: identity,
      magenta: identity,
      cyan: identity,
    };
  }
  return {
    enabled,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
  };
}

/**
 * Whether to color a stream. In order: the `--no-color` flag turns colors
 * off; `FORCE_COLOR=0` or `false` turns them off and any other value of
 * `FORCE_COLOR` on (as in Node and supports-color; it wins over `NO_COLOR`); `NO_COLOR` (set and non-empty, see
 * no-color.org) turns them off; otherwise colors are on for a TTY whose
 * `TERM` is not `dumb`.
 */
export function colorEnabled(opts: {
  readonly noColorFlag: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly isTTY: boolean;
}): boolean {
  if (opts.noColorFlag) return false;
  const force = opts.env.FORCE_COLOR;
  // FORCE_COLOR=0 or false turns colors off, as in Node and supports-color (an empty value forces them on, as there).
  if (force !== undefined && (force === '0' || force.toLowerCase() === 'false')) return false;
  if (force !== undefined) return true;
  const no = opts.env.NO_COLOR;
  if (no !== undefined && no !== '') return false;
  return opts.isTTY && opts.env.TERM !== 'dumb';
}
