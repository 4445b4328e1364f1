/**
 * Reads a stream (the standard input, for `-f -`) in chunks, up to `limit + 1` bytes: enough to
 * tell it is over the limit, never the whole of a stream too large to hold. Stops reading there
 * (the stream is destroyed), so a writer that goes on gets `EPIPE` instead of filling memory.
 */
export async function readAtMost(stream: AsyncIterable<unknown>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    chunks.push(bytes);
    size += bytes.byteLength;
    if (size > limit) break;
  }
  const all = Buffer.concat(chunks);
  return all.byteLength > limit + 1 ? all.subarray(0, limit + 1) : all;
}
