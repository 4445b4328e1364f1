/** Where a renderer sends its output: called with each chunk, in order. */
export type WriteChunk = (chunk: string) => void;

/** About how many characters a chunk holds before it is written. */
export const CHUNK_SIZE = 64 * 1024;

/**
 * Gathers small pieces of output (lines) and writes them in chunks of about
 * {@link CHUNK_SIZE} characters. A table of 150,000 rows written as one string holds every line,
 * and the string joined from them, until the last row is done: written in chunks, each line can
 * be collected as soon as its chunk is out, and a stream gets a few dozen writes, not one per
 * line.
 */
export class ChunkedWriter {
  readonly #write: WriteChunk;
  readonly #size: number;
  #parts: string[] = [];
  #length = 0;

  constructor(write: WriteChunk, size = CHUNK_SIZE) {
    this.#write = write;
    this.#size = size;
  }

  /** Adds a piece; writes the chunk when it is full. */
  push(text: string): void {
    this.#parts.push(text);
    this.#length += text.length;
    if (this.#length >= this.#size) this.flush();
  }

  /** Writes what is gathered (nothing when empty): call it once the output is complete. */
  flush(): void {
    if (this.#length === 0) return;
    const chunk = this.#parts.join('');
    this.#parts = [];
    this.#length = 0;
    this.#write(chunk);
  }
}

/** What `render` writes, as one string: for callers that want the whole output at once. */
export function collectChunks(render: (write: WriteChunk) => void): string {
  const chunks: string[] = [];
  render((chunk) => chunks.push(chunk));
  return chunks.join('');
}
