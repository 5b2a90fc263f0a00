/** The part of Ink's `Key` the key maps read (kept structural so key maps stay pure and testable). */
export interface KeyInfo {
  readonly upArrow: boolean;
  readonly downArrow: boolean;
  readonly leftArrow: boolean;
  readonly rightArrow: boolean;
  readonly pageUp: boolean;
  readonly pageDown: boolean;
  readonly home: boolean;
  readonly end: boolean;
  readonly return: boolean;
  readonly escape: boolean;
  readonly ctrl: boolean;
  readonly shift: boolean;
  readonly tab: boolean;
  readonly backspace: boolean;
  readonly delete: boolean;
  readonly meta: boolean;
}

/** A key with nothing pressed; tests spread it with the one they need. */
export const NO_KEY: KeyInfo = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageUp: false,
  pageDown: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
};

/** Text typed (or pasted) that may go into an input: no control characters; line breaks and tabs become spaces. */
export function typedText(input: string, key: KeyInfo): string {
  if (key.ctrl || key.escape || key.return || key.tab || key.backspace || key.delete) return '';
  if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown || key.home || key.end) return '';
  // eslint-disable-next-line no-control-regex
  return input.replace(/[\r\n\t]/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

const CONTROL_KEYS: Readonly<Record<string, Partial<KeyInfo>>> = {
  '\t': { tab: true },
  '\x7f': { delete: true },
  '\b': { backspace: true },
};

/**
 * Splits a batch of keys that arrived in one read into single key presses.
 * Ink hands over such a batch as one string (a held key over a slow link:
 * `jjj`, `\x7f\x7f`; `send-keys` in tmux: `\tq`), which no key map would
 * recognize. Tab and backspace inside a batch stay keys; line breaks are a
 * pasted text's and stay text.
 */
export function splitKeys(input: string, key: KeyInfo): Array<{ readonly input: string; readonly key: KeyInfo }> {
  const chars = Array.from(input);
  if (chars.length <= 1 || key.ctrl || key.meta || key.escape) return [{ input, key }];
  return chars.map((ch) => {
    const special = CONTROL_KEYS[ch];
    return special ? { input: '', key: { ...NO_KEY, ...special } } : { input: ch, key: NO_KEY };
  });
}
