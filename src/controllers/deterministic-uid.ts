/**
 * The uids an API server would generate, made offline as a function of a key (a resource's
 * type, namespace and name), so that a render that reads `metadata.uid` is reproducible.
 */

/** The uids made, by key: each resource's is asked for on every render that reads it. */
const uids = new Map<string, string>();
const MAX_REMEMBERED_UIDS = 100_000;

/** A UUID-shaped id that is a function of `key` (four 32-bit FNV-1a hashes, differently seeded). */
export function deterministicUid(key: string): string {
  let uid = uids.get(key);
  if (uid === undefined) {
    if (uids.size >= MAX_REMEMBERED_UIDS) uids.clear();
    uid = computeUid(key);
    uids.set(key, uid);
  }
  return uid;
}

function computeUid(key: string): string {
  let digits = '';
  for (const seed of [0x811c9dc5, 0x050c5d1f, 0x1b873593, 0x6b43a9b5]) {
    let hash = seed;
    for (let i = 0; i < key.length; i++) {
      hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    }
    digits += (hash >>> 0).toString(16).padStart(8, '0');
  }
  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-5${digits.slice(13, 16)}-${digits.slice(16, 20)}-${digits.slice(20, 32)}`;
}
