/**
 * A 64-bit FNV-1a hash of `text`'s UTF-16 units, as 16 hex digits (two 32-bit lanes from
 * different offsets): a name for a cache entry, found without loading Node's crypto module (some
 * 5 ms of a start). Not a cryptographic hash: a cache that uses it keeps what it hashed and
 * compares it too.
 */
export function textHash(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    low = Math.imul(low ^ unit, 0x01000193);
    high = Math.imul(high ^ unit, 0x01000193) ^ (low >>> 15);
  }
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}
