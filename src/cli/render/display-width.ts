/**
 * How many terminal columns a text takes: what a table pads by. A CJK character or an emoji takes
 * two, a combining mark or a zero-width joiner none, so `.length` (UTF-16 units) misaligns every
 * column after one (`日本語サーバ` is 6 units but 12 columns; `é` written `e` + U+0301 is 2 units,
 * 1 column). The East Asian Wide and Fullwidth ranges, as terminals (and `string-width`) count
 * them; a text of printable ASCII, nearly every one, is its length.
 */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of SEGMENTER.segment(text)) width += clusterWidth(segment);
  return width;
}

/** The text padded with spaces to `width` columns. */
export function padDisplay(text: string, width: number): string {
  const pad = width - displayWidth(text);
  return pad > 0 ? text + ' '.repeat(pad) : text;
}

/** The text cut to at most `width` columns, the last of them `…` when it was cut. */
export function cutDisplay(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const { segment } of SEGMENTER.segment(text)) {
    const w = clusterWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

const ASCII = /^[\x20-\x7e]*$/;
const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Marks, format characters (ZWJ, bidi marks) and variation selectors: no column of their own. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u{fe00}-\u{fe0f}]+$/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\u{fe0f}/u;
/** East Asian Wide and Fullwidth: Hangul Jamo, CJK, kana, Hangul syllables, fullwidth forms. */
const WIDE =
  /^[\u{1100}-\u{115f}\u{2e80}-\u{303e}\u{3041}-\u{33ff}\u{3400}-\u{4dbf}\u{4e00}-\u{9fff}\u{a000}-\u{a4cf}\u{a960}-\u{a97f}\u{ac00}-\u{d7a3}\u{f900}-\u{faff}\u{fe10}-\u{fe19}\u{fe30}-\u{fe6f}\u{ff00}-\u{ff60}\u{ffe0}-\u{ffe6}\u{1f200}-\u{1f2ff}\u{20000}-\u{3fffd}]/u;

function clusterWidth(cluster: string): number {
  if (ZERO_WIDTH.test(cluster)) return 0;
  if (WIDE.test(cluster) || EMOJI.test(cluster)) return 2;
  return 1;
}
