/** The terminal size, following resizes. */
import { useEffect, useState } from 'react';
import type { Size } from './chrome.js';
import { ink } from './ink.js';

export { isTooSmall, MIN_SIZE, type Size } from './chrome.js';

/** The terminal's size as it is (80×24 when the stream does not say). */
function read(stdout: NodeJS.WriteStream): Size {
  return {
    columns: stdout.columns > 0 ? stdout.columns : 80,
    rows: stdout.rows > 0 ? stdout.rows : 24,
  };
}

/**
 * The size of the output terminal (re-read on every `resize`), or `fixed`
 * when given (tests). Screens use one row less than the terminal: Ink keeps
 * the cursor on the line after the frame, and a frame as tall as the screen
 * would make it clear the whole terminal at every render.
 */
export function useTerminalSize(fixed?: Size): Size {
  const { stdout } = ink().useStdout();
  const [size, setSize] = useState<Size>(() => read(stdout));
  useEffect(() => {
    if (fixed) return undefined;
    const onResize = (): void => setSize(read(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed]);
  return fixed ?? size;
}
