/**
 * Go's `base64.StdEncoding.Decode`, as the API server decodes a built-in object's `[]byte` field
 * (a Secret's `data`, a webhook's `caBundle`): where it gives up, in its words. It reads bytes
 * (UTF-8), skips line feeds and carriage returns anywhere, wants `=` padding, and names the
 * first byte it cannot take (`illegal base64 data at input byte 4`): an unknown character, a
 * quantum cut short (at its first byte), padding too early, or anything after the padding.
 */

/** The standard alphabet's value of each byte, or -1. */
const VALUES = (() => {
  const values = new Int8Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  return values;
})();

const LF = 0x0a;
const CR = 0x0d;
const PAD = 0x3d;

/** Well-formed base64 once line breaks are out: what Go decodes, found without a walk. */
const WELL_FORMED = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The byte at which Go's decoder refuses `text`, or `undefined` when it decodes. */
export function base64ErrorOffset(text: string): number | undefined {
  // Most values are well formed (a Secret's data, a CA bundle): only a refused one is walked.
  if (WELL_FORMED.test(text.replace(/[\r\n]/g, ''))) return undefined;
  const src = Buffer.from(text, 'utf8');
  let si = 0;
  while (si < src.length) {
    const quantum = decodeQuantum(src, si);
    if (quantum.error !== undefined) return quantum.error;
    si = quantum.next;
  }
  return undefined;
}

/** Go's `illegal base64 data at input byte N` for `text`, or `undefined` when it decodes. */
export function base64Error(text: string): string | undefined {
  const at = base64ErrorOffset(text);
  return at === undefined ? undefined : `illegal base64 data at input byte ${at}`;
}

const isNewline = (byte: number | undefined): boolean => byte === LF || byte === CR;

/** One quantum of four characters from `si` (`decodeQuantum`): where the next starts, or why not. */
function decodeQuantum(
  src: Buffer,
  start: number,
): { readonly next: number; readonly error?: number } {
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) {
      // Padding is wanted: a quantum cut short is refused at its first byte.
      return j === 0 ? { next: si } : { next: si, error: si - j };
    }
    const byte = src[si] as number;
    si++;
    if ((VALUES[byte] as number) >= 0) continue;
    if (isNewline(byte)) {
      j--;
      continue;
    }
    if (byte !== PAD || j < 2) return { next: si, error: si - 1 };
    if (j === 2) {
      // `==` is wanted; the first `=` is read.
      while (si < src.length && isNewline(src[si])) si++;
      if (si === src.length) return { next: si, error: src.length };
      if (src[si] !== PAD) return { next: si, error: si - 1 };
      si++;
    }
    while (si < src.length && isNewline(src[si])) si++;
    // Anything after the padding.
    return si < src.length ? { next: si, error: si } : { next: si };
  }
  return { next: si };
}
