/**
 * How tones look. With colors off (NO_COLOR, --no-color, not a TTY) only bold
 * and inverse remain, and every meaning is also carried by the text itself.
 */
import type { Tone } from './line.js';

export interface Theme {
  readonly color: boolean;
}

/** Ink `<Text>` style props for a tone. */
export interface ToneStyle {
  color?: string;
  bold?: boolean;
  dimColor?: boolean;
  inverse?: boolean;
}

const COLORED: Readonly<Record<Tone, ToneStyle>> = {
  plain: {},
  dim: { dimColor: true },
  heading: { bold: true },
  cursor: { inverse: true },
  added: { color: 'green', bold: true },
  error: { color: 'red', bold: true },
  warning: { color: 'yellow' },
  replay: { color: 'magenta', bold: true },
  accent: { color: 'cyan' },
  key: { color: 'cyan', bold: true },
};

const PLAIN: Readonly<Record<Tone, ToneStyle>> = {
  plain: {},
  dim: {},
  heading: { bold: true },
  cursor: { inverse: true },
  added: { bold: true },
  error: { bold: true },
  warning: {},
  replay: { bold: true },
  accent: {},
  key: { bold: true },
};

export function toneStyle(theme: Theme, tone: Tone): ToneStyle {
  return (theme.color ? COLORED : PLAIN)[tone];
}
