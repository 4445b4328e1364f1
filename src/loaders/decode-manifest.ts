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
 * @throws EncodingError for UTF-16 or UTF-32 input, for binary data (an archive, an image, a
 *   program named `.yaml`), and at the first byte that is not UTF-8.
 */
export function decodeManifest(bytes: Uint8Array): string {
  const wide = wideEncoding(bytes);
  if (wide !== undefined) {
    throw new EncodingError(`the file is ${wide}, not UTF-8: save it as UTF-8`, 1, 1);
  }
  const signed = signatureKind(bytes);
  if (signed !== undefined) {
    throw new EncodingError(`the file is binary (${signed}), not YAML text`, 1, 1);
  }
  const sniffed = bytes.subarray(0, SNIFFED_BYTES);
  let text: string;
  try {
    text = strict.decode(bytes);
  } catch {
    // Not UTF-8, and a zero byte or a control character no editor writes: data (a gzip or PNG
    // header), not text in a legacy encoding.
    const binary = zeroOrControl(sniffed);
    if (binary !== undefined) {
      throw new EncodingError(`the file is binary (${binary}), not YAML text`, 1, 1);
    }
    const offset = firstInvalidByte(bytes);
    let lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
    if (offset === 0) lineStart = 0;
    let line = 1;
    for (let i = 0; i < lineStart; i++) if (bytes[i] === 0x0a) line++;
    const col = lenient.decode(bytes.subarray(lineStart, offset)).length + 1;
    throw new EncodingError(
      `the file is not UTF-8: the byte 0x${hex(bytes[offset])} is not valid here (Windows-1252 or Latin-1 text?): save the file as UTF-8`,
      line,
      col,
    );
  }
  // UTF-8, but zero bytes, which no text holds: one is a character written by mistake (said at
  // its place), several are data (a tar archive of text files).
  if (zeroBytes(sniffed) >= MANY_ZEROS) {
    throw new EncodingError(
      `the file is binary (${zeroBytes(sniffed)} zero bytes in its first ${sniffed.length} bytes), not YAML text`,
      1,
      1,
    );
  }
  return text;
}

/** How many zero bytes among the first make text data. */
const MANY_ZEROS = 4;

const zeroBytes = (bytes: Uint8Array): number => bytes.reduce((n, b) => (b === 0 ? n + 1 : n), 0);

/** The first zero byte or control byte (as {@link controlByte}), said, or `undefined`. */
function zeroOrControl(bytes: Uint8Array): string | undefined {
  const zero = bytes.indexOf(0);
  if (zero !== -1) return `a zero byte at offset ${zero}`;
  const control = controlByte(bytes);
  return control === -1
    ? undefined
    : `the control byte 0x${hex(bytes[control])} at offset ${control}`;
}

/** How many bytes at the start are looked at to tell data from text (as git does). */
const SNIFFED_BYTES = 8000;

/** Formats that begin with a signature, by their first bytes. */
const SIGNATURES: readonly { readonly bytes: readonly number[]; readonly kind: string }[] = [
  { bytes: [0x1f, 0x8b], kind: 'gzip data' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], kind: 'a GIF image' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: 'a ZIP archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: 'an ELF executable' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], kind: 'a WebAssembly module' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], kind: 'zstd data' },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: 'xz data' },
  { bytes: [0x42, 0x5a, 0x68], kind: 'bzip2 data' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], kind: 'a PDF document' },
];

/**
 * The binary format whose signature the bytes begin with, or `undefined`: bzip2's and PDF's are
 * ASCII, so a file of ASCII text that starts as they do is text.
 */
function signatureKind(bytes: Uint8Array): string | undefined {
  const found = SIGNATURES.find(({ bytes: signature }) =>
    signature.every((b, i) => bytes[i] === b),
  );
  if (found === undefined) return undefined;
  const sniffed = bytes.subarray(0, SNIFFED_BYTES);
  const ascii = controlByte(sniffed) === -1 && sniffed.every((b) => b !== 0 && b < 0x80);
  return ascii ? undefined : found.kind;
}

/** The offset of the first C0 control byte no text holds (all but tab, line breaks, form feed, escape), or -1. */
function controlByte(bytes: Uint8Array): number {
  return bytes.findIndex(
    (b) =>
      b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b,
  );
}

const hex = (byte: number | undefined): string =>
  (byte ?? 0).toString(16).toUpperCase().padStart(2, '0');

/**
 * `UTF-16` or `UTF-32` for text in either (by its byte order mark, or by the zero bytes of the
 * ASCII characters YAML starts with), `undefined` otherwise.
 */
function wideEncoding(bytes: Uint8Array): 'UTF-16' | 'UTF-32' | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (
    (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) ||
    (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff)
  ) {
    return 'UTF-32';
  }
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) return 'UTF-16';
  if (asciiInUnits(bytes, 4)) return 'UTF-32';
  if (asciiInUnits(bytes, 2)) return 'UTF-16';
  return undefined;
}

/** How many characters at the start {@link asciiInUnits} looks at. */
const SNIFFED_UNITS = 32;

/**
 * Whether the first characters read as ASCII in units of `width` bytes, little or big endian:
 * the first one, and three in four of the rest, one byte the character and the others zero.
 */
function asciiInUnits(bytes: Uint8Array, width: number): boolean {
  const units = Math.min(Math.floor(bytes.length / width), SNIFFED_UNITS);
  if (units === 0) return false;
  for (const lane of [0, width - 1]) {
    let fits = 0;
    for (let unit = 0; unit < units; unit++) {
      let ascii = true;
      for (let k = 0; k < width && ascii; k++) {
        const b = bytes[unit * width + k] ?? 0;
        ascii = k === lane ? b !== 0 && b < 0x80 : b === 0;
      }
      if (ascii) fits++;
      else if (unit === 0) break;
    }
    if (fits > 0 && fits * 4 >= units * 3) return true;
  }
  return false;
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
