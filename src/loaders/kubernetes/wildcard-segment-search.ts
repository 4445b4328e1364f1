/**
 * Finding a segment of a Kyverno wildcard pattern that holds `?` (any one character) in a text, in
 * time linear in the text for a segment of up to 32 characters, and in `text × segment / 32` for a
 * longer one: the bit-parallel shift-and search, where each bit of the state says whether the
 * segment's first characters up to it match the text ending at the current character. Trying the
 * segment at each place of the text took `text × segment`: a pattern of 20,000 characters
 * against a value of 40,000 took seconds, and both are untrusted.
 */

/** Bits in a word of the state. */
const WORD = 32;

/** A compiled segment (no `*`; `?` any one character). */
export interface SegmentSearch {
  /** Where the segment first matches in `text` at or after `from`, ending by `end`; -1 if nowhere. */
  find(text: string, from: number, end: number): number;
}

/**
 * Compiles `segment`. The characters that fill many bits of it get a mask of their own; the
 * others (fewer places than the state has words) set their bits one by one, so that a segment of
 * many distinct characters takes memory in proportion to its length.
 */
export function segmentSearch(segment: string): SegmentSearch {
  const length = segment.length;
  const words = Math.max(1, Math.ceil(length / WORD));
  const anyChar = new Uint32Array(words);
  const places = new Map<number, number[]>();
  for (let i = 0; i < length; i++) {
    const char = segment.charCodeAt(i);
    if (char === 0x3f) anyChar[i >>> 5] = ((anyChar[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
    else {
      const list = places.get(char);
      if (list === undefined) places.set(char, [i]);
      else list.push(i);
    }
  }
  // A character's own mask holds the places of `?` too.
  const dense = new Map<number, Uint32Array>();
  const sparse = new Map<number, number[]>();
  for (const [char, list] of places) {
    if (list.length <= words) {
      sparse.set(char, list);
      continue;
    }
    const mask = anyChar.slice();
    for (const i of list) mask[i >>> 5] = ((mask[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
    dense.set(char, mask);
  }
  const state = new Uint32Array(words);
  const last = length - 1;
  /** Whether the segment's characters before `i` match the text before the current one. */
  const matchedBefore = (i: number): boolean =>
    i === 0 || (((state[(i - 1) >>> 5] as number) >>> ((i - 1) & 31)) & 1) === 1;
  return {
    find(text, from, end) {
      if (length === 0) return from <= end ? from : -1;
      state.fill(0);
      for (let at = from; at < end; at++) {
        const char = text.charCodeAt(at);
        const own = sparse.get(char);
        const kept = own?.filter(matchedBefore);
        const mask = dense.get(char) ?? anyChar;
        // Shifted by one (the match of nothing shifted in, which every place starts) and masked.
        for (let k = words - 1; k > 0; k--) {
          const shifted = ((state[k] as number) << 1) | ((state[k - 1] as number) >>> 31);
          state[k] = (shifted & (mask[k] as number)) >>> 0;
        }
        state[0] = ((((state[0] as number) << 1) | 1) & (mask[0] as number)) >>> 0;
        if (kept !== undefined) {
          for (const i of kept)
            state[i >>> 5] = ((state[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
        }
        if ((((state[last >>> 5] as number) >>> (last & 31)) & 1) === 1) return at - last;
      }
      return -1;
    },
  };
}
