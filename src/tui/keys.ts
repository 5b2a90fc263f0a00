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
  if (
    key.upArrow ||
    key.downArrow ||
    key.leftArrow ||
    key.rightArrow ||
    key.pageUp ||
    key.pageDown ||
    key.home ||
    key.end
  )
    return '';
  // eslint-disable-next-line no-control-regex
  return input.replace(/[\r\n\t]/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/** Keys sent as `ESC [ … final` (CSI) or `ESC O final` (SS3), by their parameters and final byte. */
const SEQUENCE_KEYS: Readonly<Record<string, Partial<KeyInfo>>> = {
  A: { upArrow: true },
  B: { downArrow: true },
  C: { rightArrow: true },
  D: { leftArrow: true },
  H: { home: true },
  F: { end: true },
  Z: { tab: true, shift: true },
  '1~': { home: true },
  '7~': { home: true },
  '4~': { end: true },
  '8~': { end: true },
  '3~': { delete: true },
  '5~': { pageUp: true },
  '6~': { pageDown: true },
};

/** One key of a batch: an escape sequence, or a single code point. */
type BatchKey = { readonly input: string; readonly key: KeyInfo };

/** A single control character as Ink reads it when it arrives alone (`\x15` is Ctrl-U…). */
function controlKey(ch: string): BatchKey | null {
  const code = ch.codePointAt(0)!;
  if (ch === '\t') return { input: '', key: { ...NO_KEY, tab: true } };
  if (ch === '\x7f') return { input: '', key: { ...NO_KEY, delete: true } };
  if (ch === '\b') return { input: '', key: { ...NO_KEY, backspace: true } };
  // Line breaks inside a batch are a pasted text's: they stay text (an input turns them into spaces).
  if (ch === '\r' || ch === '\n') return null;
  // Ctrl-@ and Ctrl-A … Ctrl-Z, as Ink names them: ctrl + the letter.
  if (code <= 0x1a) return { input: String.fromCharCode(code + 0x60), key: { ...NO_KEY, ctrl: true } };
  return null;
}

/**
 * The escape sequence at `i` (which holds ESC), as one key: a CSI or SS3
 * sequence (arrows, PgUp/PgDn, Home/End, Shift-Tab, Delete, with the
 * modifiers of `ESC[1;5A` = Ctrl-Up), ESC + a character (Alt/Meta), or a
 * lone Esc. Unknown complete sequences become an empty key, never text.
 */
function escapeKey(chars: readonly string[], i: number): { readonly key: BatchKey; readonly next: number } {
  const next = chars[i + 1];
  if (next === undefined) return { key: { input: '', key: { ...NO_KEY, escape: true, meta: true } }, next: i + 1 };
  if (next === '[' || next === 'O') {
    let j = i + 2;
    let params = '';
    while (j < chars.length && /^[\x20-\x3f]$/.test(chars[j]!)) params += chars[j++];
    const final = chars[j];
    if (final !== undefined && /^[\x40-\x7e]$/.test(final)) {
      // `1;5A` is Ctrl-Up: the second parameter is 1 + the modifiers (1 Shift, 2 Alt, 4 Ctrl).
      const [bare = '', mod = '1'] = params.split(';');
      const bits = Math.max(0, (Number.parseInt(mod, 10) || 1) - 1);
      const special = SEQUENCE_KEYS[final === '~' ? `${bare}~` : final];
      const modifiers: Partial<KeyInfo> = {
        ...(bits & 1 ? { shift: true } : {}),
        ...(bits & 2 ? { meta: true } : {}),
        ...(bits & 4 ? { ctrl: true } : {}),
      };
      return { key: { input: '', key: special ? { ...NO_KEY, ...special, ...modifiers } : NO_KEY }, next: j + 1 };
    }
    // Not a complete sequence: Alt-[ / Alt-O.
  }
  if (next === '\x1b') return { key: { input: '', key: { ...NO_KEY, escape: true, meta: true } }, next: i + 1 };
  const control = controlKey(next);
  if (control) return { key: { input: control.input, key: { ...control.key, meta: true } }, next: i + 2 };
  return { key: { input: next, key: { ...NO_KEY, meta: true } }, next: i + 2 };
}

/**
 * Splits a batch of keys that arrived in one read into single key presses,
 * in order. Ink hands over such a batch as one string (a held key over a slow
 * link: `jjj`, `\x7f\x7f`; `send-keys` in tmux: `\tq`, `\t\x15`; a paste),
 * which no key map would recognize. Every key the screens bind stays a key:
 * Tab, Backspace/Delete, Ctrl-letters (Ctrl-U `\x15`, Ctrl-F, Ctrl-Y…) and
 * escape sequences (arrows, PgUp/PgDn, Home/End, Esc); printable characters
 * are typed one by one; line breaks are a pasted text's and stay text.
 */
export function splitKeys(input: string, key: KeyInfo): BatchKey[] {
  const chars = Array.from(input);
  if (chars.length <= 1 || key.ctrl || key.meta || key.escape) return [{ input, key }];
  const out: BatchKey[] = [];
  for (let i = 0; i < chars.length; ) {
    const ch = chars[i]!;
    if (ch === '\x1b') {
      const e = escapeKey(chars, i);
      out.push(e.key);
      i = e.next;
      continue;
    }
    out.push(controlKey(ch) ?? { input: ch, key: /^[A-Z]$/.test(ch) ? { ...NO_KEY, shift: true } : NO_KEY });
    i++;
  }
  return out;
}

/**
 * Whether a key (or a batch) asks to quit from anywhere: q, Esc or Ctrl-C (what still works on a too-small terminal).
 */
export function isQuitKey(input: string, key: KeyInfo): boolean {
  return splitKeys(input, key).some(
    (k) => k.key.escape || (k.key.ctrl && k.input === 'c') || (!k.key.ctrl && !k.key.meta && k.input === 'q'),
  );
}
