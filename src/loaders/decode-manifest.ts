/**
 * Manifest bytes to text, strictly: YAML files are UTF-8 here, and a byte that is not (a
 * Windows-1252 `’`, a UTF-16 file) must be refused where it is, not read as U+FFFD.
 */

/** Thrown by {@link decodeManifest}: where the bytes stop being UTF-8, and why. */
export class EncodingError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly col: number,
  ) {
    super(message);
    this.name = 'EncodingError';
  }
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The text of UTF-8 bytes (a byte order mark kept, as yaml expects it).
 *
 * @throws EncodingError for UTF-16 or UTF-32 input and at the first byte that is not UTF-8.
 */
export function decodeManifest(bytes: Uint8Array): string {
  if (looksLikeUtf16(bytes)) {
    throw new EncodingError('the file is UTF-16 (or UTF-32), not UTF-8: save it as UTF-8', 1, 1);
  }
  try {
    return strict.decode(bytes);
  } catch {
    const offset = firstInvalidByte(bytes);
    let lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
    if (offset === 0) lineStart = 0;
    let line = 1;
    for (let i = 0; i < lineStart; i++) if (bytes[i] === 0x0a) line++;
    const col = lenient.decode(bytes.subarray(lineStart, offset)).length + 1;
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    throw new EncodingError(
      `the file is not UTF-8: the byte 0x${byte} is not valid here (Windows-1252 or Latin-1 text?): save the file as UTF-8`,
      line,
      col,
    );
  }
}

/** A UTF-16 or UTF-32 byte order mark, or the zero bytes of ASCII text in UTF-16. */
function looksLikeUtf16(bytes: Uint8Array): boolean {
  const [b0, b1] = bytes;
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) return true;
  // YAML starts with ASCII; in UTF-16 every other byte of it is zero.
  return bytes.length >= 2 && (b0 === 0) !== (b1 === 0);
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let length: number;
    let min = 0x80;
    let max = 0xbf;
    if (b < 0x80) length = 1;
    else if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) min = 0xa0; // overlong
      if (b === 0xed) max = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) min = 0x90; // overlong
      if (b === 0xf4) max = 0x8f; // beyond U+10FFFF
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      const lo = k === 1 ? min : 0x80;
      const hi = k === 1 ? max : 0xbf;
      if (c === undefined || c < lo || c > hi) return i;
    }
    i += length;
  }
  return bytes.length;
}
