/**
 * The conversation stepper: the container wires keys to the reducer and runs
 * re-simulations through the `resimulate` prop; each panel is a small
 * component drawing lines built in `screen.ts`.
 */
import type { Key } from 'ink';
import { ink } from '../ink.js';
import { useCallback, useEffect, useMemo, useReducer, useRef, type ReactElement } from 'react';
import type { Mode } from '../../core/types.js';
import type { SimulationReport } from '../../jobs/simulate/report.js';
import { helpMetrics, helpWindow } from '../help.js';
import { isQuitKey } from '../keys.js';
import { seg, type Line } from '../line.js';
import { LinesView, LineView, ThemeContext } from '../LinesView.js';
import { isTooSmall, useTerminalSize, type Size } from '../size.js';
import { TooSmall } from '../TooSmall.js';
import type { Theme } from '../theme.js';
import type { StepperInputs } from './model.js';
import {
  callListLines,
  detailLines,
  footerLine,
  headerLine,
  helpLines,
  messageContext,
  messagesLines,
  stepperLayout,
  toolPanelLines,
  type StepperLayout,
} from './screen.js';
import { stepperEventReducer } from './keys.js';
import { initialStepperState, type StepperState } from './state.js';

export interface StepperProps {
  readonly report: SimulationReport;
  readonly inputs: StepperInputs;
  /** Runs the simulation again over the same inputs (mode switch, replay toggle). */
  readonly resimulate: (mode: Mode, replay: boolean) => SimulationReport | Promise<SimulationReport>;
  readonly theme?: Theme;
  /** A fixed size (tests); otherwise the terminal's, following resizes. */
  readonly size?: Size;
}

interface PanelProps {
  readonly state: StepperState;
  readonly inputs: StepperInputs;
  readonly layout: StepperLayout;
}

function CallList({ state, layout }: PanelProps): ReactElement {
  return (
    <LinesView
      lines={callListLines(state, layout.leftWidth, layout.topHeight)}
      height={layout.topHeight}
      width={layout.leftWidth}
    />
  );
}

function Separator({ height }: { readonly height: number }): ReactElement {
  const lines: Line[] = Array.from({ length: height }, (_, i) => [seg(i === 0 ? '┬' : '│', 'dim')]);
  return <LinesView lines={lines} height={height} width={1} />;
}

function ToolPanel({ state, inputs, layout }: PanelProps): ReactElement {
  const lines =
    state.detail !== null
      ? detailLines(state, inputs, layout.rightWidth, layout.topHeight)
      : toolPanelLines(state, inputs, layout.rightWidth, layout.topHeight);
  return <LinesView lines={lines} height={layout.topHeight} width={layout.rightWidth} />;
}

function MessagesPanel({ state, inputs, layout }: PanelProps): ReactElement {
  const ctx = useMemo(() => messageContext(state), [state.report, state.selected]);
  return (
    <LinesView
      lines={messagesLines(state, inputs, ctx, layout.width, layout.messagesHeight)}
      height={layout.messagesHeight}
    />
  );
}

export function Stepper({ report, inputs, resimulate, theme = { color: false }, size }: StepperProps): ReactElement {
  const [state, dispatch] = useReducer(stepperEventReducer, report, initialStepperState);
  // A new report from outside (`watch`: a call arrived): taken in as a re-simulation is, the selection kept.
  const given = useRef(report);
  useEffect(() => {
    if (given.current === report) return;
    given.current = report;
    dispatch({ type: 'reportLoaded', report });
  }, [report]);
  const { Box, useApp, useInput } = ink();
  const { exit } = useApp();
  const terminal = useTerminalSize(size);
  const tooSmall = isTooSmall(terminal);
  const layout = stepperLayout(terminal);
  const helpHeight = layout.topHeight + layout.messagesHeight;
  const tokens = state.report.summary.tokens;
  const help = useMemo(() => helpLines(layout.width, tokens), [layout.width, tokens]);
  const helpScrolling = helpMetrics(help.length, helpHeight);

  // Read by the key handler, which stays stable (Ink re-subscribes whenever it changes).
  const keyView = useRef({ tooSmall, helpScrolling });
  keyView.current = { tooSmall, helpScrolling };
  const onKey = useCallback((input: string, key: Key) => {
    // Too small to show anything: only the quit keys work (nothing changes unseen).
    if (keyView.current.tooSmall) {
      if (isQuitKey(input, key)) dispatch({ type: 'quit' });
      return;
    }
    dispatch({ type: 'key', input, key, help: keyView.current.helpScrolling });
  }, []);
  useInput(onKey);

  useEffect(() => {
    if (state.quit) exit();
  }, [state.quit, exit]);

  useEffect(() => {
    const pending = state.pending;
    if (!pending) return undefined;
    let live = true;
    Promise.resolve()
      .then(() => resimulate(pending.mode, pending.replay))
      .then(
        (next) => live && dispatch({ type: 'reportLoaded', report: next }),
        (err: unknown) =>
          live && dispatch({ type: 'reportFailed', message: err instanceof Error ? err.message : String(err) }),
      );
    return () => {
      live = false;
    };
  }, [state.pending, resimulate]);

  if (tooSmall) {
    return (
      <ThemeContext.Provider value={theme}>
        <TooSmall size={terminal} />
      </ThemeContext.Provider>
    );
  }
  const panels = { state, inputs, layout };
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={layout.width} height={layout.height} overflow="hidden">
        <LineView line={headerLine(state, layout.width)} />
        {state.help ? (
          <LinesView lines={helpWindow(help, layout.width, helpHeight, state.helpScroll)} height={helpHeight} />
        ) : (
          <>
            <Box flexDirection="row" height={layout.topHeight}>
              <CallList {...panels} />
              <Separator height={layout.topHeight} />
              <ToolPanel {...panels} />
            </Box>
            <MessagesPanel {...panels} />
          </>
        )}
        <LineView line={footerLine(state, layout.width, helpScrolling.maxScroll > 0)} />
      </Box>
    </ThemeContext.Provider>
  );
}
