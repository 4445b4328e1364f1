/**
 * The order an RGD's resources are rendered in: Kahn's topological order of their dependencies,
 * ties by declaration, and what is left over as a cycle.
 */

/**
 * Kahn's order of the ids by their dependencies, ties by declaration; what is left is a cycle.
 * Linear but for a heap of the ready ids by declaration: O((ids + dependencies) log ids).
 */
export function kahnOrder(
  ids: readonly string[],
  deps: ReadonlyMap<string, ReadonlySet<string>>,
): { order: string[]; cycle: string[] } {
  const declared = ids.filter((id) => id !== '');
  const index = new Map(declared.map((id, i) => [id, i]));
  /** How many dependencies of each id (by index) are not ordered yet; who depends on each. */
  const waiting = declared.map(() => 0);
  const dependents: number[][] = declared.map(() => []);
  for (const [i, id] of declared.entries()) {
    for (const dep of new Set(deps.get(id) ?? [])) {
      const d = index.get(dep);
      if (d === undefined) continue;
      waiting[i] = (waiting[i] ?? 0) + 1;
      dependents[d]?.push(i);
    }
  }
  const ready = new MinHeap();
  for (const [i, count] of waiting.entries()) if (count === 0) ready.push(i);
  const order: string[] = [];
  const placed = new Set<number>();
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    order.push(declared[next] as string);
    placed.add(next);
    for (const dependent of dependents[next] ?? []) {
      waiting[dependent] = (waiting[dependent] ?? 0) - 1;
      if (waiting[dependent] === 0) ready.push(dependent);
    }
  }
  return { order, cycle: declared.filter((_, i) => !placed.has(i)) };
}

/** A binary min-heap of numbers. */
class MinHeap {
  readonly #items: number[] = [];

  push(value: number): void {
    const items = this.#items;
    items.push(value);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[i] = items[parent] as number;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && (items[right] as number) < (items[left] as number) ? right : left;
      if ((items[child] as number) >= last) break;
      items[i] = items[child] as number;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
