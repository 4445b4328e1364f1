/** The namespaces end-to-end tests run in when they name none, as chainsaw makes them. */

/** The longest namespace name (a DNS label). */
const MAX_NAMESPACE_LENGTH = 63;

/**
 * The namespaces chainsaw makes for tests that name none, one per test: `chainsaw-` and the
 * test's directory (chainsaw picks two random words), a number after it when two tests'
 * directories share a name, so that each test's objects are apart from the others', as there.
 */
export class TestNamespaces {
  readonly #taken = new Set<string>();

  /** Marks a namespace a test names as taken. */
  take(namespace: string): void {
    this.#taken.add(namespace);
  }

  for(directory: string): string {
    const label = directory.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    const base = `chainsaw-${label}`.slice(0, MAX_NAMESPACE_LENGTH - 4).replace(/-+$/, '');
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) name = `${base}-${n}`;
    this.#taken.add(name);
    return name;
  }
}
