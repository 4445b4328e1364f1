import { takeSnapshot } from '../engine/state/state-snapshot.js';
import type { State } from '../engine/state/state.js';
import { hasErrors, type Finding } from '../loaders/finding.js';
import { ForeignStateError, foreignTypes } from './foreign-state.js';
import { withConfigManifests, type ManifestsRequirement } from './config-manifests.js';
import { loadProjectConfig } from './project-config.js';
import { readProjectManifests, type ReadProjectOptions } from './read-project-manifests.js';
import {
  compareChanges,
  diffAgainstState,
  type AppliedContent,
  type ResourceChange,
} from './state-diff.js';
import { projectKubernetesKinds } from './project-kubernetes-kinds.js';
import type { OwnerReference } from '../engine/resource/metadata.js';
import {
  printedOwnerReferences,
  type KubernetesKindOf,
} from '../loaders/kubernetes/printed-owner-references.js';
import { definitionResource } from './definition-resource.js';
import { controllerSpecFields } from './controller-spec-fields.js';
import {
  appliedKeys,
  type AppliedEntry,
  type LastApplied,
} from '../engine/state/resource-applier.js';
import { RESOURCE_DEFINITION_TYPE } from '../engine/resource/definition.js';
import type { Draft } from '../engine/resource/resource.js';
import { pointerKey } from '../engine/resource/pointer.js';
import { maskChangedValues, maskedSpecFields } from './masked-values.js';

/** What diffing a project against a state takes: where its manifests are, and the state. */
export interface DiffProjectOptions extends ReadProjectOptions, ManifestsRequirement {
  /**
   * The running system's state; only read. Or how to connect to it, called once the manifests
   * are read and valid: a usage error is said without touching the state.
   */
  readonly state: State | (() => Promise<State>);
  /** How the state is named in a refusal (`etcd://127.0.0.1:2379/demo`). */
  readonly stateName: string;
  /**
   * The set of resources `cosi run` applied last (see `EtcdState.readAppliedSet`), read once the
   * state is: only those are shown removed, as a run prunes only those (none when no set was
   * recorded). Without it, every manifest's resource the manifests do not have.
   */
  readonly applied?: () => Promise<readonly AppliedEntry[] | undefined>;
}

/** A diff: the changes an apply would make, and the manifests' findings (warnings only). */
export interface ProjectDiff {
  readonly changes: readonly ResourceChange[];
  readonly findings: readonly Finding[];
  /**
   * The state held nothing at all (no definition, no resource): a mistyped prefix reads so, and
   * then every resource shows as created.
   */
  readonly emptyState: boolean;
}

/**
 * What applying a project's manifests to `state` would change, as `cosi run` applies them,
 * without writing anything: the config and the manifests are read as every command reads them,
 * the state is read once (every kind listed), and the two compared: the manifests' resources,
 * and the definitions (the config's and the manifests'; created or changed, never removed, as
 * `cosi run` stores them). Manifests with errors are not compared: their findings are returned.
 *
 * @throws ConfigError when the config cannot be found or loaded; MissingManifestsError when
 *   manifests are required and neither the options nor the config give any; ForeignStateError when the
 *   state holds another project's resources (as `cosi run` refuses it); the state's own errors
 *   (etcd unreachable) as they come.
 */
export async function diffProject(
  options: DiffProjectOptions,
): Promise<ProjectDiff | { readonly refused: readonly Finding[] }> {
  const config = await loadProjectConfig(options);
  // Given no paths, the config's, with its ignore patterns, definitions and Kubernetes version.
  const read = await readProjectManifests(withConfigManifests(options, config), config);
  if (hasErrors(read.findings)) return { refused: read.findings };
  const state = typeof options.state === 'function' ? await options.state() : options.state;
  const foreign = await foreignTypes(state, read.registry);
  if (foreign.length > 0) throw new ForeignStateError(options.stateName, foreign);
  const { resources, definitions } = await takeSnapshot(state);
  const applied = options.applied === undefined ? undefined : await options.applied();
  const removes = options.applied === undefined ? true : new Set((applied ?? []).map(pointerKey));
  const lastApplied = new Map<string, LastApplied>();
  for (const entry of applied ?? []) {
    const keys = appliedKeys(entry);
    if (keys !== undefined) lastApplied.set(pointerKey(entry), keys);
  }
  // As `cosi run` stores them; through JSON, as the state keeps them (no undefined fields).
  const desiredDefinitions = read.registry
    .all()
    .filter((d) => d.type !== RESOURCE_DEFINITION_TYPE)
    .map((d) => JSON.parse(JSON.stringify(definitionResource(d))) as Draft);
  const changes = [
    ...diffAgainstState(desiredDefinitions, definitions, { removes: false }),
    ...diffAgainstState(
      read.resources.map((r) => r.resource),
      resources,
      {
        removes,
        keptSpecFields: (type) => controllerSpecFields(read.registry.get(type)),
        lastApplied: (key) => lastApplied.get(key),
      },
    ),
  ].sort(compareChanges);
  const ownerKinds = projectKubernetesKinds(read.registry, undefined);
  return {
    changes: changes.map((change): ResourceChange => {
      const definition = read.registry.get(change.type);
      const masked = maskedChange(
        change,
        maskedSpecFields(definition, change.live?.spec, change.desired?.spec),
      );
      const kubernetes = definition?.kubernetes;
      if (kubernetes === undefined) return masked;
      const { apiVersion, kind, namespaced } = kubernetes;
      return {
        ...withPrintedOwners(masked, ownerKinds),
        kubernetes: { apiVersion, kind, namespaced },
      };
    }),
    findings: read.findings,
    emptyState: resources.length === 0 && definitions.length === 0,
  };
}

/** A Kubernetes object's owner references as kubectl prints them (as `cosi get -o yaml` does). */
function withPrintedOwners(change: ResourceChange, kindOf: KubernetesKindOf): ResourceChange {
  const printed = (content: AppliedContent | undefined): AppliedContent | undefined => {
    const references = content?.metadata.ownerReferences as OwnerReference[] | undefined;
    if (content === undefined || references === undefined) return content;
    const ownerReferences = printedOwnerReferences(references, content.metadata.namespace, kindOf);
    return { ...content, metadata: { ...content.metadata, ownerReferences } };
  };
  const live = printed(change.live);
  const desired = printed(change.desired);
  return { ...change, ...(live ? { live } : {}), ...(desired ? { desired } : {}) };
}

/**
 * A change with the values of `fields` (a Secret's `data` and `stringData`) masked, as `kubectl
 * diff` masks a Secret's: `***` where live and desired agree or only one has it, `*** (before)` and
 * `*** (after)` where the value changed. The change itself was found on the values.
 */
function maskedChange(change: ResourceChange, fields: readonly string[]): ResourceChange {
  if (fields.length === 0) return change;
  const { live, desired } = change;
  const [before, after] = maskChangedValues(
    live?.spec ?? desired?.spec,
    desired?.spec ?? live?.spec,
    fields,
  );
  return {
    ...change,
    ...(live === undefined ? {} : { live: { ...live, spec: before } }),
    ...(desired === undefined ? {} : { desired: { ...desired, spec: after } }),
  };
}
