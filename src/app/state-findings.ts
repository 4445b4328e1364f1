/**
 * What the state a run left shows, as `cosi check` reports it beside what the controllers did:
 * each kro RGD instance that stays in progress (`rgd-waiting`) and each observed status laid on
 * nothing (`observed-unused`). Made here once for every reader of a run: `check`, `apply`, `get`
 * and `report` (`runProject`), `cosi/testing`'s findings (and so a scenario's `expect-findings`),
 * and each round of `cosi watch`.
 */

import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { StateSnapshot } from '../engine/state/state-snapshot.js';
import type { Finding } from '../loaders/finding.js';
import type { ManifestSource } from '../loaders/manifest-resource.js';
import { unusedObservationFindings } from './unused-observations.js';
import { waitingInstanceFindings } from './waiting-instances.js';

/**
 * The findings of the state at the end of a convergence run, each at the manifest of the
 * resource involved (`sources`: where each manifest is, by pointer key).
 */
export function stateFindings(
  snapshot: StateSnapshot,
  registry: DefinitionRegistry,
  sources: Pick<ReadonlyMap<string, ManifestSource>, 'get'>,
): Finding[] {
  return [
    ...waitingInstanceFindings(snapshot, registry, sources),
    ...unusedObservationFindings(snapshot, sources),
  ];
}
