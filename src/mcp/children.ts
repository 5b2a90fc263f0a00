/**
 * Every server process we start ends, whatever happens to us: the children
 * that are alive are tracked here, and killed (with their process group) when
 * our process exits or is stopped by SIGINT, SIGTERM or SIGHUP. The signal
 * handlers are installed only while a child is alive; after the cleanup the
 * signal is raised again so the process still ends the way it would have,
 * unless someone else also listens for it.
 */
import type { ChildProcess } from 'node:child_process';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type Sig = (typeof SIGNALS)[number];

const live = new Set<ChildProcess>();
let installed = false;

/** Whether children get their own process group (POSIX), so a wrapper (`npx`, `uvx`) and what it started end together. */
export const OWN_PROCESS_GROUP = process.platform !== 'win32';

/** Sends a signal to a child and, on POSIX, to its whole process group. Never throws. */
export function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (OWN_PROCESS_GROUP) process.kill(-pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone (ESRCH), or not ours to signal any more.
  }
}

function killAll(): void {
  for (const child of live) killTree(child, 'SIGKILL');
  live.clear();
}

const onExit = (): void => killAll();

const onSignal = (signal: Sig): void => {
  killAll();
  uninstall();
  // Nobody else handles it: let the default action (ending the process) happen.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
};
const handlers = new Map<Sig, () => void>(SIGNALS.map((s) => [s, () => onSignal(s)]));

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  for (const [s, h] of handlers) process.on(s, h);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', onExit);
  for (const [s, h] of handlers) process.off(s, h);
}

/** Starts tracking a child that was just spawned. */
export function trackChild(child: ChildProcess): void {
  live.add(child);
  install();
}

/** Stops tracking a child that has ended. */
export function untrackChild(child: ChildProcess): void {
  live.delete(child);
  if (live.size === 0) uninstall();
}

/** Number of tracked children (for tests). */
export function liveChildren(): number {
  return live.size;
}
