/**
 * What a project is, for processes sharing one state: its types (each with a digest of its
 * definition) and its controllers' names. Processes serving one state must agree on it: a leader
 * with other controllers than its peers would converge something else, or nothing.
 */
export interface ProjectFingerprint {
  /** A digest of the rest: equal fingerprints have equal digests. */
  readonly digest: string;
  /** `type@digest` of each type, sorted. */
  readonly types: readonly string[];
  /** The config's controllers, those its `setup` registers too, sorted. */
  readonly controllers: readonly string[];
  /** Who wrote it: `host/pid`. */
  readonly identity: string;
}

/** Why two fingerprints differ, in a few words: `types +a -b; controllers +c`. */
export function describeFingerprintDifference(
  stored: ProjectFingerprint,
  own: ProjectFingerprint,
): string {
  const diff = (label: string, theirs: readonly string[], ours: readonly string[]): string[] => {
    const added = ours.filter((x) => !theirs.includes(x)).map((x) => `+${x}`);
    const removed = theirs.filter((x) => !ours.includes(x)).map((x) => `-${x}`);
    const all = [...added, ...removed];
    return all.length === 0 ? [] : [`${label} ${all.join(' ')}`];
  };
  const parts = [
    ...diff('types', stored.types, own.types),
    ...diff('controllers', stored.controllers, own.controllers),
  ];
  return parts.length === 0 ? 'the fingerprints differ' : parts.join('; ');
}
