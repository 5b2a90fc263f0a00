/**
 * Live search: the container wires keys to the reducer, runs the search on
 * every change of the query (synchronously: the index answers in well under
 * a frame, see the note in the README) and performs the two effects the state
 * asks for — loading the baseline and copying the command line.
 */
import type { Key } from 'ink';
import { ink } from '../ink.js';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactElement } from 'react';
import type { ToolIndex } from '../../core/index/tool-index.js';
import { LinesView, LineView, ThemeContext } from '../LinesView.js';
import { helpMetrics, helpWindow } from '../help.js';
import { isQuitKey } from '../keys.js';
import { isTooSmall, useTerminalSize, type Size } from '../size.js';
import { TooSmall } from '../TooSmall.js';
import type { Theme } from '../theme.js';
import { searchCommandLine } from './command-line.js';
import {
  comparisonLines,
  explanationLines,
  exploreLayout,
  footerLine,
  headerLine,
  helpLines,
  queryLine,
  resultCount,
  resultLines,
  statusLine,
  type ExploreView,
} from './screen.js';
import { baselineQuery, exploreSearch, type ExploreResult } from './search.js';
import { exploreEventReducer } from './keys.js';
import { initialExploreState } from './state.js';

/** Catalogs larger than this rank the baseline only once typing pauses for {@link BASELINE_DEBOUNCE_MS}. */
const BASELINE_DEBOUNCE_ABOVE = 500;
const BASELINE_DEBOUNCE_MS = 150;

/** A baseline ranking: the names of the best `limit` tools for a query (a module engine answers later). */
export type BaselineRanker = (query: string, limit: number) => readonly string[] | Promise<readonly string[]>;

export interface ExploreProps {
  /** The index over the catalog's dynamic tools (what `tool_search` searches). */
  readonly index: ToolIndex;
  /** Loads the fuse.js baseline (called once, on the first `f`). */
  readonly loadBaseline: () => Promise<BaselineRanker>;
  /** The engines `e` shows beside the reference, in turn (ai-sdk, mastra, a module). */
  readonly engines?: readonly string[];
  /** Loads an engine's ranking (called once per engine, when first shown). */
  readonly loadEngine?: (name: string) => Promise<BaselineRanker>;
  /** The engine shown beside the reference from the start (`explore --engine`). */
  readonly initialCompare?: string;
  /** Catalog options to repeat in the copied command line (`-c`, `demo.yaml`…). */
  readonly catalogArgs: readonly string[];
  /** Where the tools came from, for the header. */
  readonly source: string;
  /** Puts a command line on the clipboard (and keeps it to print at exit). */
  readonly onCopy: (commandLine: string) => void;
  readonly initialQuery?: string;
  readonly initialMaxResults?: number;
  readonly theme?: Theme;
  /** A fixed size (tests); otherwise the terminal's, following resizes. */
  readonly size?: Size;
}

function firstResult(r: ExploreResult): string | null {
  if (r.kind === 'keyword' || r.kind === 'select') return r.rows[0]?.name ?? null;
  return null;
}

/**
 * The baseline's ranking of `query` (null: none wanted). fuse.js takes about
 * 80 ms of CPU per query on 5,000 tools (test/tui/explore-perf.test.tsx), so
 * on big catalogs it ranks off the keystroke path, once typing pauses for
 * `delay` ms: the reference results still follow every key at once, and the
 * previous ranking stays up (marked not fresh) meanwhile. It still runs on
 * the UI thread: a key that arrives during a ranking is drawn after it.
 */
function useBaselineRanking(
  ranker: BaselineRanker | null,
  query: string | null,
  limit: number,
  delay: number,
  source: string,
  onError: (message: string) => void,
): { readonly names: readonly string[] | null; readonly fresh: boolean } {
  const [done, setDone] = useState<{
    query: string;
    limit: number;
    source: string;
    names: readonly string[];
  } | null>(null);
  const fresh =
    query !== null && done !== null && done.query === query && done.limit === limit && done.source === source;
  useEffect(() => {
    if (query === null || ranker === null || fresh) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      const names = ranker(query, limit);
      if (!('then' in names)) {
        setDone({ query, limit, source, names });
        return;
      }
      // A module engine answers from its worker: the last answer stays up (marked not fresh) meanwhile.
      names.then(
        (n) => live && setDone({ query, limit, source, names: n }),
        (err: unknown) => live && onError(err instanceof Error ? err.message : String(err)),
      );
    }, delay);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, limit, ranker, delay, fresh, source, onError]);
  return { names: query === null || done === null || done.source !== source ? null : done.names, fresh };
}

export function Explore(props: ExploreProps): ReactElement {
  const { index, loadBaseline, onCopy, theme = { color: false } } = props;
  const [state, dispatch] = useReducer(
    exploreEventReducer,
    {
      query: props.initialQuery,
      maxResults: props.initialMaxResults,
      ...(props.initialCompare !== undefined ? { compare: props.initialCompare } : {}),
    },
    initialExploreState,
  );
  const engines = props.engines ?? [];
  const { Box, useApp, useInput } = ink();
  const { exit } = useApp();
  const size = useTerminalSize(props.size);
  const tooSmall = isTooSmall(size);
  const [ranker, setRanker] = useState<BaselineRanker | null>(null);
  const [engineRankers, setEngineRankers] = useState<ReadonlyMap<string, BaselineRanker>>(new Map());

  const result = useMemo(
    () => exploreSearch(index, state.query, state.maxResults),
    [index, state.query, state.maxResults],
  );
  const count = resultCount(result);
  const layout = exploreLayout(size, result);
  const body = layout.resultsHeight + layout.explainHeight;
  const help = useMemo(() => helpLines(layout.width), [layout.width]);
  const helpScrolling = helpMetrics(help.length, body);

  // Read by the key handler, which stays stable (Ink re-subscribes whenever it changes).
  const keyView = useRef({ count, tooSmall, helpScrolling, engines });
  keyView.current = { count, tooSmall, helpScrolling, engines };
  const onKey = useCallback((input: string, key: Key) => {
    // Too small to show anything: only the quit keys work (nothing changes unseen).
    if (keyView.current.tooSmall) {
      if (isQuitKey(input, key)) dispatch({ type: 'quit' });
      return;
    }
    dispatch({
      type: 'key',
      input,
      key,
      resultCount: keyView.current.count,
      help: keyView.current.helpScrolling,
      engines: keyView.current.engines,
    });
  }, []);
  useInput(onKey);

  useEffect(() => {
    if (state.quit) exit();
  }, [state.quit, exit]);

  // Load an engine the first time `e` shows it.
  const { loadEngine } = props;
  useEffect(() => {
    if (state.fuse !== 'loading' || state.compare === 'fuse' || engineRankers.has(state.compare)) return undefined;
    if (loadEngine === undefined) return undefined;
    let live = true;
    const name = state.compare;
    loadEngine(name).then(
      (r) => {
        if (!live) return;
        setEngineRankers((m) => new Map([...m, [name, r]]));
        dispatch({ type: 'engineReady', name });
      },
      (err: unknown) =>
        live && dispatch({ type: 'fuseFailed', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [state.fuse, state.compare, engineRankers, loadEngine]);

  // Load the baseline on the first `f`.
  useEffect(() => {
    if (state.fuse !== 'loading' || state.compare !== 'fuse' || ranker !== null) return undefined;
    let live = true;
    loadBaseline().then(
      (r) => {
        if (!live) return;
        setRanker(() => r);
        dispatch({ type: 'fuseReady' });
      },
      (err: unknown) =>
        live && dispatch({ type: 'fuseFailed', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [state.fuse, ranker, loadBaseline]);

  // fuse.js gets the keywords without their `+`; an engine gets the query as typed, as its model would send it.
  const isFuse = state.compare === 'fuse';
  const wanted =
    state.fuse === 'on' && result.kind === 'keyword' ? (isFuse ? baselineQuery(result.keywords) : state.query) : null;
  const onRankError = useCallback((message: string) => dispatch({ type: 'fuseFailed', message }), []);
  const baseline = useBaselineRanking(
    isFuse ? ranker : (engineRankers.get(state.compare) ?? null),
    wanted,
    result.kind === 'keyword' ? result.maxResults : 0,
    isFuse && index.size > BASELINE_DEBOUNCE_ABOVE ? BASELINE_DEBOUNCE_MS : 0,
    state.compare,
    onRankError,
  );

  // Copy the command line when asked.
  const lastCopy = useRef(state.copyRequest);
  useEffect(() => {
    if (state.copyRequest === lastCopy.current) return;
    lastCopy.current = state.copyRequest;
    if (result.kind !== 'keyword' && result.kind !== 'select') {
      dispatch({ type: 'notice', text: 'nothing to copy: type a query first' });
      return;
    }
    const line = searchCommandLine({
      catalogArgs: props.catalogArgs,
      query: state.query,
      maxResults: state.maxResults,
      first: firstResult(result),
    });
    onCopy(line);
    dispatch({ type: 'notice', text: `copied: ${line}` });
  }, [state.copyRequest, result, state.query, state.maxResults, props.catalogArgs, onCopy]);

  const view: ExploreView = {
    result,
    baseline: baseline.names,
    baselineStale: !baseline.fresh,
    source: props.source,
    toolCount: index.size,
    partsOf: (n) => index.partsOf(n) ?? [],
  };
  if (tooSmall) {
    return (
      <ThemeContext.Provider value={theme}>
        <TooSmall size={size} />
      </ThemeContext.Provider>
    );
  }
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={layout.width} height={layout.height} overflow="hidden">
        <LineView line={headerLine(state, view, layout.width)} />
        <LineView line={queryLine(state, layout.width)} />
        <LineView line={statusLine(view, layout.width)} />
        {state.help ? (
          <LinesView lines={helpWindow(help, layout.width, body, state.helpScroll)} height={body} />
        ) : (
          <>
            <LinesView
              lines={
                state.fuse === 'off'
                  ? resultLines(state, view, layout.width, layout.resultsHeight)
                  : comparisonLines(state, view, layout.width, layout.resultsHeight)
              }
              height={layout.resultsHeight}
            />
            <LinesView
              lines={explanationLines(state, view, layout.width, layout.explainHeight)}
              height={layout.explainHeight}
            />
          </>
        )}
        <LineView line={footerLine(state, layout.width, helpScrolling.maxScroll > 0)} />
      </Box>
    </ThemeContext.Provider>
  );
}
