/**
 * The watch screen's module (ink and React with it), loaded with ink's chalk at the level the
 * screen draws at. ink styles with a chalk of its own (the bundle compiles another in), whose level
 * supports-color reads once, as it loads, from the terminal and `FORCE_COLOR`. Without color
 * (`NO_COLOR`, `FORCE_COLOR=0`, `--no-color`) the screen still draws bold, dim and reverse video,
 * or the selected row would not show: ink's chalk loads at the basic level, and no part of the
 * screen asks it for a color (see `screen-color.ts`). `FORCE_COLOR=0` is left set after, for what
 * reads it later (the session's worker, the project's code in it).
 */
export async function importWatchScreen(color: boolean) {
  if (color) return import('../ui/watch-screen.js');
  process.env.FORCE_COLOR = '1';
  try {
    return await import('../ui/watch-screen.js');
  } finally {
    process.env.FORCE_COLOR = '0';
  }
}
