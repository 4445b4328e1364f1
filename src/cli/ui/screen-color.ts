import { createContext, useContext } from 'react';

/**
 * Whether the watch screen colors (false with `NO_COLOR`, `FORCE_COLOR=0` or `--no-color`).
 * Without color the screen still draws in bold, dim and reverse video, as monochrome terminal
 * programs do: the selected row is shown in reverse, or nothing would show which one it is.
 */
export const ScreenColor = createContext(true);

/** A color, or none when the screen draws without color. */
export type Hue = <C extends string>(color: C | undefined) => C | undefined;

/** The screen's {@link Hue}: what `<Text color>` gets. */
export function useHue(): Hue {
  const on = useContext(ScreenColor);
  return (color) => (on ? color : undefined);
}
