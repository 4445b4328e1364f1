/**
 * Resources and a harness for the generic controller tests, after COSI's A -> B (+ C) test types.
 */
import { defineResource, type Kind, type StateEvent } from '../../src/index.js';

export interface ASpec {
  str: string;
  int: number;
}
export interface BSpec {
  out: string;
  /** How many times transform ran on this output. */
  count: number;
}
export interface CSpec {
  aux: number;
}

export const A = defineResource<ASpec>({
  type: 'As.test.cosi.dev',
  defaultNamespace: 'ns-a',
  defaultSpec: () => ({ str: '', int: 0 }),
});
export const B = defineResource<BSpec>({
  type: 'Bs.test.cosi.dev',
  defaultNamespace: 'ns-b',
  defaultSpec: () => ({ out: '', count: 0 }),
});
export const C = defineResource<CSpec>({
  type: 'Cs.test.cosi.dev',
  defaultNamespace: 'ns-c',
  defaultSpec: () => ({ aux: 0 }),
});

import type { Harness } from '../support/harness.js';

export { createHarness, type Harness } from '../support/harness.js';

/**
 * Records every change of the given kinds as `<event> <id>` (`created x`, `updated x`,
 * `destroyed x`), prefixed by the type's first letter when more than one kind is watched.
 */
export async function recordEvents(h: Harness, ...kinds: Kind[]): Promise<string[]> {
  const log: string[] = [];
  for (const kind of kinds) {
    const prefix = kinds.length > 1 ? `${kind.type.slice(0, 1)} ` : '';
    await h.state.watchKind(kind, (event: StateEvent) => {
      if (event.type === 'created' || event.type === 'updated' || event.type === 'destroyed') {
        log.push(`${prefix}${event.type} ${event.resource.metadata.id}`);
      }
    });
  }
  return log;
}

/** Ids of the resources of a kind, sorted. */
export async function ids(h: Harness, kind: Kind): Promise<string[]> {
  return (await h.state.list(kind)).map((r) => r.metadata.id);
}
