import { gzipSync } from 'node:zlib';

/**
 * The report's data as it is embedded in the page: JSON, gzipped, in base64. Resources repeat
 * their types, owners and input kinds: gzip takes 10k resources' 10 MB of JSON to about a
 * tenth, and the page's script inflates it with the browser's own `DecompressionStream`.
 * Base64 holds no `<`, so no string of a manifest can close the element that carries it.
 * Deterministic: the same data gives the same text (gzip's header carries no time here).
 */
export function encodeReportData(data: unknown): string {
  return gzipSync(JSON.stringify(data), { level: 9 }).toString('base64');
}
