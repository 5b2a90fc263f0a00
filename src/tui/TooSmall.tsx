/** What a terminal below the minimum size shows: one centred line saying so, instead of a layout that would wrap. */
import { tooSmallLines } from './chrome.js';
import { LinesView } from './LinesView.js';
import type { Size } from './size.js';

export function TooSmall({ size }: { readonly size: Size }): React.JSX.Element {
  const height = Math.max(1, size.rows - 1);
  return <LinesView lines={tooSmallLines(size)} height={height} width={Math.max(1, size.columns)} />;
}
