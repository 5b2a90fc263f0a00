/**
 * `watch` on a terminal: a session bar over the stepper of the selected
 * session. The sessions update as calls arrive (the stepper takes each new
 * report with its selection kept); `>` and `<` switch sessions; `m` and `r`
 * re-simulate every session in the other mode or with replay.
 */
import type { Key } from 'ink';
import { useCallback, useMemo, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import type { Mode } from '../../core/types.js';
import type { LiveSession, LiveWatch } from '../../jobs/watch/live.js';
import { isQuitKey } from '../keys.js';
import { fitLine, safe, seg, type Line } from '../line.js';
import { LinesView, LineView, ThemeContext } from '../LinesView.js';
import { ink } from '../ink.js';
import { isTooSmall, useTerminalSize, type Size } from '../size.js';
import type { Theme } from '../theme.js';
import { TooSmall } from '../TooSmall.js';
import { stepperInputs } from '../stepper/run.js';
import { Stepper } from '../stepper/Stepper.js';
import type { ToolInfo } from '../../core/types.js';
import { simulationTools } from '../../jobs/simulate/engine.js';
import type { Catalog } from '../../formats/types.js';

export interface WatchViewProps {
  readonly watch: LiveWatch;
  /** What to show before the first call: where the server listens and how to point an agent at it. */
  readonly header: string;
  readonly hints: readonly string[];
  /** The catalog the sessions are simulated against (null: their own tools). */
  readonly catalog: Catalog | null;
  readonly staticNames?: readonly string[];
  readonly theme?: Theme;
  readonly size?: Size;
}

const shown = (s: LiveSession): boolean => s.report !== null;

/** The session bar: which session of how many, its source, calls and findings. */
export function sessionBar(sessions: readonly LiveSession[], at: number, width: number): Line {
  const s = sessions[at]!;
  const r = s.report!;
  const where = s.source === 'otlp' ? `trace ${s.traceId!.slice(0, 8)}` : `proxy ${s.provider ?? ''}`;
  const parts = [
    seg(`session ${s.id} `, 'heading'),
    seg(`${at + 1}/${sessions.length}  `),
    seg(`${safe(where)}  ${r.turns.length} ${r.turns.length === 1 ? 'call' : 'calls'}  `, 'dim'),
    ...(r.summary.errors > 0 ? [seg(`${r.summary.errors} violations  `, 'error')] : []),
    ...(s.problem !== null ? [seg(`${safe(s.problem)}  `, 'warning')] : []),
    seg('> <', 'key'),
    seg(' sessions', 'dim'),
  ];
  return fitLine(parts, width);
}

export function WatchView({
  watch,
  header,
  hints,
  catalog,
  staticNames,
  theme = { color: false },
  size,
}: WatchViewProps): ReactElement {
  const { Box, useApp, useInput } = ink();
  const { exit } = useApp();
  useSyncExternalStore(
    useCallback((l: () => void) => watch.subscribe(l), [watch]),
    () => watch.version,
  );
  const sessions = watch.sessions.filter(shown);
  const [picked, setPicked] = useState<string | null>(null);
  const at = Math.max(
    0,
    sessions.findIndex((s) => s.id === picked),
  );
  const current = sessions[at] ?? null;
  const terminal = useTerminalSize(size);
  // Read by the key handler, which Ink keeps from the first render.
  const view = useRef({ picked, waiting: current === null });
  view.current = { picked, waiting: current === null };
  const onKey = useCallback(
    (input: string, key: Key) => {
      if (view.current.waiting && isQuitKey(input, key)) exit();
      if (input === '>' || input === '<') {
        const list = watch.sessions.filter(shown);
        if (list.length === 0) return;
        const i = Math.max(
          0,
          list.findIndex((s) => s.id === (view.current.picked ?? list[0]!.id)),
        );
        const next = (i + (input === '>' ? 1 : list.length - 1)) % list.length;
        setPicked(list[next]!.id);
      }
    },
    [exit, watch],
  );
  useInput(onKey);
  const resimulate = useCallback(
    (mode: Mode, replay: boolean) => {
      watch.setView(mode, replay);
      const s = watch.sessions.find((x) => x.id === (current?.id ?? ''));
      if (!s?.report) throw new Error('the session could not be simulated again');
      return s.report;
    },
    [watch, current?.id],
  );
  const transcript = current?.transcript ?? null;
  const inputs = useMemo(() => {
    if (!transcript) return null;
    const tools = simulationTools({ transcript, catalog, ...(staticNames ? { staticNames } : {}) });
    const split: { staticTools: readonly ToolInfo[]; dynamicTools: readonly ToolInfo[] } = {
      staticTools: tools.staticTools,
      dynamicTools: tools.dynamicTools,
    };
    return stepperInputs(transcript, split);
  }, [transcript, catalog, staticNames]);

  if (isTooSmall(terminal)) {
    return (
      <ThemeContext.Provider value={theme}>
        <TooSmall size={terminal} />
      </ThemeContext.Provider>
    );
  }
  if (current === null || inputs === null) {
    const height = terminal.rows - 1;
    const lines: Line[] = [
      [seg(safe(header), 'heading')],
      ...hints.map((h): Line => [seg(safe(h))]),
      [],
      [seg('waiting for model calls…', 'dim')],
      ...watch.sessions
        .filter((s) => s.report === null && s.problem !== null)
        .map((s): Line => [seg(`${s.id}: ${safe(s.problem!)}`, 'warning')]),
      [],
      [seg('q', 'key'), seg(' quits', 'dim')],
    ].map((l) => fitLine(l, terminal.columns));
    return (
      <ThemeContext.Provider value={theme}>
        <LinesView lines={lines} height={height} width={terminal.columns} />
      </ThemeContext.Provider>
    );
  }
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={terminal.columns}>
        <LineView line={sessionBar(sessions, at, terminal.columns)} />
        <Stepper
          key={current.id}
          report={current.report!}
          inputs={inputs}
          resimulate={resimulate}
          theme={theme}
          size={{ columns: terminal.columns, rows: terminal.rows - 1 }}
        />
      </Box>
    </ThemeContext.Provider>
  );
}
