/**
 * Every server process we start ends, whatever happens to us: the children
 * that are alive are tracked here, and killed (with their process group) when
 * our process exits or is stopped by SIGINT, SIGTERM or SIGHUP. The signal
 * handlers are installed only while a child is alive; after the cleanup the
 * signal is raised again so the process still ends the way it would have,
 * unless someone else also listens for it.
 *
 * A server's process group outlives the server itself when a grandchild
 * (what `npx` or a shell started) stays: {@link endGroup} sends the group
 * SIGTERM, waits a grace period, then SIGKILL. A grandchild that left the
 * group (`setsid`, a daemon) cannot be reached: no POSIX call finds it.
 */
import type { ChildProcess } from 'node:child_process';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type Sig = (typeof SIGNALS)[number];

const live = new Set<ChildProcess>();
/** Process groups (their leader's pid) that may still have members after their leader ended. */
const groups = new Set<number>();
let installed = false;

/**
 * Whether children get their own process group (POSIX), so a wrapper (`npx`, `uvx`) and what it started end together.
 */
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
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
  groups.clear();
}

/** Signals a process group; false when nobody is left in it (ESRCH). Never throws. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** How long {@link endGroup} waits after SIGTERM before SIGKILL. */
export const GROUP_GRACE_MS = 1000;
/** How often it looks whether the group is empty. */
const GROUP_POLL_MS = 25;

/**
 * Ends what is left of a child's process group (POSIX; elsewhere the child
 * alone was signalled): SIGTERM, then, when a member is still there after
 * `graceMs` (it traps or ignores SIGTERM), SIGKILL. Resolves when the group
 * is empty or SIGKILL was sent. Until then the group is also killed if our
 * process exits.
 */
export async function endGroup(child: ChildProcess, graceMs: number = GROUP_GRACE_MS): Promise<void> {
  const pgid = child.pid;
  if (!OWN_PROCESS_GROUP || pgid === undefined) return;
  if (!signalGroup(pgid, 'SIGTERM')) return;
  groups.add(pgid);
  install();
  try {
    const until = Date.now() + graceMs;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, GROUP_POLL_MS));
      if (!signalGroup(pgid, 0)) return;
    }
    signalGroup(pgid, 'SIGKILL');
  } finally {
    groups.delete(pgid);
    if (live.size === 0 && groups.size === 0) uninstall();
  }
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
  if (live.size === 0 && groups.size === 0) uninstall();
}

/** Number of tracked children (for tests). */
export function liveChildren(): number {
  return live.size;
}
