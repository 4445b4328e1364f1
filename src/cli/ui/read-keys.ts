import type { Key } from 'ink';

/**
 * The keys of one read of the terminal, in order. ink hands a read as one input, splitting off
 * escape sequences (arrows) only: text pasted, or keystrokes batched by ssh or tmux (`/web` and
 * Enter), comes as `'/web\r'`, which is no key of its own. Each of its characters is a key then,
 * Enter, Tab, Backspace and Ctrl-C as ink names them when typed alone.
 *
 * @example
 * keysOfRead('/web\r', key).map(([input]) => input) // ['/', 'w', 'e', 'b', '']
 */
export function keysOfRead(input: string, key: Key): [string, Key][] {
  // Characters as a reader sees them: a pasted emoji or accented letter stays one.
  const chars = Array.from(new Intl.Segmenter().segment(input), ({ segment }) => segment);
  if (chars.length <= 1 || input.includes('\u001b') || key.ctrl || key.meta) return [[input, key]];
  return chars.map((char): [string, Key] => {
    switch (char) {
      case '\r':
      case '\n':
      case '\r\n':
        return ['', { ...key, return: true }];
      case '\t':
        return ['', { ...key, tab: true }];
      case '\u007f':
      case '\b':
        return ['', { ...key, backspace: true }];
      case '\u0003':
        return ['c', { ...key, ctrl: true }];
      default:
        return [char, { ...key, shift: /[A-Z]/.test(char) }];
    }
  });
}
