/**
 * Entry of `toolsearch watch` on a terminal, imported lazily by the watch
 * command: the watch view full screen until the user quits or a signal ends
 * it (the command then stops the server and writes `-o`).
 */
import type { LiveWatch } from '../../jobs/watch/live.js';
import type { Catalog } from '../../formats/types.js';
import { runFullScreen, type TerminalIo } from '../fullscreen.js';
import { prepareTui } from '../tty.js';

export interface WatchTuiOptions {
  readonly watch: LiveWatch;
  readonly header: string;
  readonly hints: readonly string[];
  readonly catalog: Catalog | null;
  readonly staticNames?: readonly string[];
  readonly color: boolean;
  readonly io: { readonly stdin: unknown; readonly stdout: unknown; readonly stderr: unknown };
}

export async function runWatchTui(options: WatchTuiOptions): Promise<{ signal: NodeJS.Signals | null }> {
  await prepareTui();
  const { WatchView } = await import('./WatchView.js');
  return runFullScreen(
    <WatchView
      watch={options.watch}
      header={options.header}
      hints={options.hints}
      catalog={options.catalog}
      {...(options.staticNames ? { staticNames: options.staticNames } : {})}
      theme={{ color: options.color }}
    />,
    options.io as TerminalIo,
  );
}
