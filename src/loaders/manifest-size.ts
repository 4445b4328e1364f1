/**
 * How large a manifest file may be. Far above any real manifest (the API server takes requests of
 * 3 MiB), far below what would not fit in one string: a larger file, or standard input, is an
 * `unreadable-file` finding instead of a crash.
 */

/** The most bytes a manifest file (or the standard input) may hold. */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** The reason an input over {@link MAX_MANIFEST_BYTES} is not read, as its finding ends. */
const TOO_LARGE = `larger than ${MAX_MANIFEST_BYTES / (1024 * 1024)} MiB, the most a manifest file may hold`;

/** Why a file larger than {@link MAX_MANIFEST_BYTES} is not read; `cannotRead` makes it a finding. */
export class ManifestTooLargeError extends Error {
  constructor() {
    super(TOO_LARGE);
    this.name = 'ManifestTooLargeError';
  }
}

/**
 * Whether a finding's message says its input was too large to read: an input opened and read
 * (a file, the standard input, a pipe), never a directory.
 */
export const saysTooLarge = (message: string): boolean => message.endsWith(TOO_LARGE);

/** Whether `bytes` (a file's size, or the text or bytes read) is over the limit. */
export function isTooLarge(content: number | string | Uint8Array): boolean {
  const size =
    typeof content === 'number'
      ? content
      : typeof content === 'string'
        ? Buffer.byteLength(content)
        : content.byteLength;
  return size > MAX_MANIFEST_BYTES;
}
