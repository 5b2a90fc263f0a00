/**
 * Aligned tables fitted to a width. Cells hold text that is already safe
 * (escaped); widths are measured before styling, and a cell's style is applied
 * after padding and truncation, so colors never disturb the alignment.
 */
import { displayWidth, pad, truncate } from './width.js';

/** A cell: its text, and optionally a style applied after layout. */
export type Cell = string | { readonly text: string; readonly style?: (s: string) => string };

/** How one column is laid out. */
export interface Column {
  readonly header?: string;
  readonly align?: 'left' | 'right';
  /**
   * Order in which columns give up width when the table is too wide: higher
   * shrinks first; 0 (the default) never shrinks.
   */
  readonly shrink?: number;
  /** Narrowest a shrinking column gets (default 8, or its natural width when smaller). */
  readonly min?: number;
}

export interface TableOptions {
  /** Total width available, in columns. */
  readonly width: number;
  /** Spaces before each line. */
  readonly indent?: number;
  /** Spaces between columns (default 2). */
  readonly gap?: number;
  /** Style of the header row. */
  readonly headerStyle?: (s: string) => string;
}

function cellText(c: Cell | undefined): string {
  return c === undefined ? '' : typeof c === 'string' ? c : c.text;
}

function cellStyle(c: Cell | undefined): ((s: string) => string) | undefined {
  return c === undefined || typeof c === 'string' ? undefined : c.style;
}

/** Column widths: natural widths, then shrunk (by priority) until the table fits. */
export function fitWidths(columns: readonly Column[], natural: readonly number[], opts: TableOptions): number[] {
  const widths = [...natural];
  const gap = opts.gap ?? 2;
  const total = (): number =>
    (opts.indent ?? 0) + widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, widths.length - 1);
  let over = total() - opts.width;
  const order = columns
    .map((c, i) => ({ i, p: c.shrink ?? 0 }))
    .filter((x) => x.p > 0)
    .sort((a, b) => b.p - a.p || b.i - a.i);
  for (const { i } of order) {
    if (over <= 0) break;
    const floor = Math.min(natural[i]!, columns[i]!.min ?? 8);
    const give = Math.min(over, widths[i]! - floor);
    if (give > 0) {
      widths[i]! -= give;
      over -= give;
    }
  }
  return widths;
}

/** Lays out rows as lines (no trailing spaces, no newline at the end of each line). */
export function renderTable(
  columns: readonly Column[],
  rows: ReadonlyArray<readonly Cell[]>,
  opts: TableOptions,
): string[] {
  const hasHeader = columns.some((c) => c.header !== undefined);
  const all: ReadonlyArray<readonly Cell[]> = hasHeader ? [columns.map((c) => c.header ?? ''), ...rows] : rows;
  const natural = columns.map((_, i) => all.reduce((m, r) => Math.max(m, displayWidth(cellText(r[i]))), 0));
  const widths = fitWidths(columns, natural, opts);
  const gap = ' '.repeat(opts.gap ?? 2);
  const indent = ' '.repeat(opts.indent ?? 0);
  // Trailing empty columns are not padded, so lines end without spaces.
  return all.map((row, r) => {
    const isHeader = hasHeader && r === 0;
    let last = columns.length - 1;
    while (last > 0 && cellText(row[last]) === '') last--;
    const parts: string[] = [];
    for (let i = 0; i <= last; i++) {
      const col = columns[i]!;
      const text = truncate(cellText(row[i]), widths[i]!);
      const align = col.align ?? 'left';
      const padded = i === last && align === 'left' ? text : pad(text, widths[i]!, align);
      const style = isHeader ? opts.headerStyle : cellStyle(row[i]);
      if (style === undefined || text === '') {
        parts.push(padded);
      } else {
        // Style only the text, not the padding.
        const fill = padded.length - text.length;
        parts.push(align === 'left' ? style(text) + padded.slice(text.length) : padded.slice(0, fill) + style(text));
      }
    }
    return (indent + parts.join(gap)).replace(/\s+$/, '');
  });
}
