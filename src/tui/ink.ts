/**
 * Ink, loaded when a TUI starts. Ink is an ES module with top-level await,
 * which the CLI's CommonJS bundle cannot `require()`; so TUI modules do not
 * import it statically (that would load Ink, React and Yoga at every start of
 * every command) but read it from here once {@link loadInk} has run
 * (prepareTui() in tty.ts does, before any TUI module renders).
 */
import type * as InkModule from 'ink';

export type Ink = typeof InkModule;

let loaded: Ink | undefined;

/** Imports Ink (once). */
export async function loadInk(): Promise<Ink> {
  loaded ??= await import('ink');
  return loaded;
}

/** Ink, after {@link loadInk}. */
export function ink(): Ink {
  if (loaded === undefined) throw new Error('Ink is used before loadInk() imported it');
  return loaded;
}
