/**
 * Entry of `toolsearch explore`, imported lazily by the explore command: the
 * only way React and Ink get loaded for it. fuse.js is loaded on the first `f`.
 */
import type { ToolIndex } from '../../core/index/tool-index.js';
import type { ToolInfo } from '../../core/types.js';
import { reraise, runFullScreen, type TerminalIo } from '../fullscreen.js';
import { osc52 } from './command-line.js';
import { warmUpSearch } from './search.js';
import { Explore, type BaselineRanker } from './Explore.js';

export interface ExploreOptions {
  readonly index: ToolIndex;
  /** The engines `e` shows beside the reference, and how to load each. */
  readonly engines?: readonly string[];
  readonly loadEngine?: (name: string) => Promise<BaselineRanker>;
  /** The engine shown from the start (`--engine`). */
  readonly initialCompare?: string;
  /** Catalog options to repeat in copied command lines. */
  readonly catalogArgs: readonly string[];
  readonly source: string;
  readonly initialQuery?: string;
  readonly initialMaxResults?: number;
  readonly color: boolean;
  readonly io: TerminalIo;
}

/** The fuse.js baseline of `toolsearch eval`, over the same tools. */
export async function loadFuseBaseline(tools: readonly ToolInfo[]): Promise<BaselineRanker> {
  const { createFuseScorer } = await import('../../jobs/eval/scorers/fuse.js');
  const scorer = await createFuseScorer(tools);
  // fuse.js ranks synchronously.
  return (query, limit) => scorer.rank(query, limit) as string[];
}

/**
 * Runs explore until the user quits (or a signal ends it: the process then
 * dies of that signal). Command lines copied during the session are printed once
 * the terminal is restored, so they are in the scrollback even where the
 * terminal ignores clipboard requests.
 */
export async function runExplore(options: ExploreOptions): Promise<void> {
  warmUpSearch(options.index);
  const copied: string[] = [];
  const onCopy = (line: string): void => {
    copied.push(line);
    options.io.stdout.write(osc52(line));
  };
  const { signal } = await runFullScreen(
    <Explore
      index={options.index}
      loadBaseline={() => loadFuseBaseline(options.index.tools())}
      {...(options.engines !== undefined ? { engines: options.engines } : {})}
      {...(options.loadEngine !== undefined ? { loadEngine: options.loadEngine } : {})}
      {...(options.initialCompare !== undefined ? { initialCompare: options.initialCompare } : {})}
      catalogArgs={options.catalogArgs}
      source={options.source}
      onCopy={onCopy}
      {...(options.initialQuery !== undefined ? { initialQuery: options.initialQuery } : {})}
      {...(options.initialMaxResults !== undefined ? { initialMaxResults: options.initialMaxResults } : {})}
      theme={{ color: options.color }}
    />,
    options.io,
  );
  for (const line of copied) options.io.stdout.write(`${line}\n`);
  reraise(signal);
}
