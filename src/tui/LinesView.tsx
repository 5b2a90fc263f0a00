/** Renders pre-fitted lines; the only place segments become Ink `<Text>`. */
import { createContext, useContext } from 'react';
import { ink } from './ink.js';
import type { Line } from './line.js';
import { toneStyle, type Theme } from './theme.js';

export const ThemeContext = createContext<Theme>({ color: false });

export function LineView({ line }: { readonly line: Line }): React.JSX.Element {
  const { Text } = ink();
  const theme = useContext(ThemeContext);
  if (line.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end">
      {line.map((s, i) => (
        <Text key={i} {...toneStyle(theme, s.tone)}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

/** Exactly `height` lines (blank lines fill up; extra lines are dropped), so panels never change size. */
export function LinesView({
  lines,
  height,
  width,
}: {
  readonly lines: readonly Line[];
  readonly height: number;
  readonly width?: number;
}): React.JSX.Element {
  const { Box, Text } = ink();
  const shown = lines.slice(0, Math.max(0, height));
  const blanks = Math.max(0, height - shown.length);
  return (
    <Box
      flexDirection="column"
      height={Math.max(0, height)}
      {...(width !== undefined ? { width } : {})}
      overflow="hidden"
    >
      {shown.map((l, i) => (
        <LineView key={i} line={l} />
      ))}
      {Array.from({ length: blanks }, (_, i) => (
        <Text key={`b${i}`}> </Text>
      ))}
    </Box>
  );
}
