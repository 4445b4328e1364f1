/**
 * The `metadata.uid` of a Kubernetes object in cosi. The API server gives each object a random
 * UUID when it is created; cosi has no server, and its output is diffed and kept in golden files,
 * so the uid is derived from what names the object: its type, its namespace (none for a
 * cluster-scoped kind, whichever namespace cosi keeps it in) and its name. The same object has
 * the same uid on every run and machine; the output prints it (`metadata.uid`), an owner
 * reference carries its owner's, and kro's expressions read it (`${schema.metadata.uid}`).
 */

/** The uids made, by key: each resource's is asked for on every render and print that shows it. */
const uids = new Map<string, string>();
const MAX_REMEMBERED_UIDS = 100_000;

/**
 * The uid of the object of `type` named `name` in `namespace` (`undefined` for a cluster-scoped
 * kind).
 *
 * @example
 * objectUid('ConfigMaps.core', 'shop', 'web-config'); // the same UUID-shaped id on every run
 */
export function objectUid(type: string, namespace: string | undefined, name: string): string {
  // A type and a namespace hold no `/`: the three parts cannot run into each other.
  return deterministicUid(`${type}/${namespace ?? ''}/${name}`);
}

/** A UUID-shaped id that is a function of `key` (see {@link objectUid}). */
export function deterministicUid(key: string): string {
  let uid = uids.get(key);
  if (uid === undefined) {
    if (uids.size >= MAX_REMEMBERED_UIDS) uids.clear();
    uid = computeUid(key);
    uids.set(key, uid);
  }
  return uid;
}

/** Four 32-bit FNV-1a hashes of `key`, differently seeded, written as a version-5 UUID. */
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
