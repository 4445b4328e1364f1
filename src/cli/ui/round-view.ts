import { isDeepStrictEqual } from 'node:util';
import { withheldFieldsOf } from '../../app/shown-spec.js';
import type { KubernetesKind, PrintColumn } from '../../engine/resource/definition.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../../engine/resource/definition-registry.js';
import { formatPointer, pointerKey } from '../../engine/resource/pointer.js';
import type { Resource } from '../../engine/resource/resource.js';
import type { ControllerCondition } from '../../engine/runtime/metrics.js';
import type { DependencyGraph } from '../../engine/runtime/dependency-graph.js';
import type { RunRecord } from '../../engine/record/run-record.js';
import type { Finding } from '../../loaders/finding.js';
import { compareStrings } from '../../engine/compare-strings.js';
import { RESOURCE_DEFINITION_TYPE } from '../../engine/resource/definition.js';
import { describeReason } from '../render/report.js';
import { errorText } from '../render/error-text.js';
import { patchRows, putRow, unmarkRows, type RowEdit } from './row-patch.js';
import type { ChangeMarker, ResourceRow } from './resource-row.js';
import type { WatchRound } from '../../app/watch-session.js';
import type { ManifestLookup } from '../../app/explain/explain-source.js';
import type { ResourceApplier } from '../../engine/state/resource-applier.js';
import type { ManifestResource } from '../../loaders/manifest-resource.js';

export type { ChangeMarker, ResourceRow } from './resource-row.js';

/** The rows of one type, sorted by namespace and id. */
export interface TypeGroup {
  readonly type: string;
  readonly displayType: string;
  /** Names the filter matches the type by (lower-case). */
  readonly names: readonly string[];
  readonly columns: readonly PrintColumn[];
  /** The type's Kubernetes kind: a built-in kind's columns read its object as the API server stores it. */
  readonly kind?: KubernetesKind;
  readonly sensitive: boolean;
  /** Spec fields whose values the view keeps back (a Secret's `data`): see `shownSpec`. */
  readonly withheld?: readonly string[];
  readonly rows: readonly ResourceRow[];
}

/** A controller in the controllers panel. */
export interface ControllerRow {
  readonly name: string;
  /** `given up` is a controller that failed until its attempt bound in this round. */
  readonly condition: ControllerCondition;
  readonly reconciles: number;
  readonly writes: number;
  readonly errors: number;
  readonly lastError?: string;
  /** Queue controllers: items still failing. */
  readonly failingItems: number;
  /** Those items (the first few): which resource, after how many attempts, with what error. */
  readonly failing?: readonly FailingItemRow[];
  /** In `backoff`: ms after the round (on its simulated clock) until the next attempt. */
  readonly retryIn?: number;
}

/** An item a queue controller gave up on, as the controllers panel names it. */
export interface FailingItemRow {
  /** `Type(namespace/id)`. */
  readonly resource: string;
  readonly attempts: number;
  /** The last error, whole (`file:line:col: message` when its place is known). */
  readonly error: string;
}

/** The most failing items of a controller the view keeps. */
const MAX_FAILING_ITEMS = 20;

/** One write of a resource seen by the view: in which round, at which version, by whom. */
export interface WriteRecord {
  readonly round: number;
  readonly marker: Exclude<ChangeMarker, ' '>;
  readonly version: number;
  /** The writer: a controller, or empty for the user's manifests. */
  readonly owner: string;
}

/** How the round ended, for the header. */
export type RoundStatus = 'converged' | 'not-converged' | 'failing' | 'not-applied' | 'error';

/**
 * One watch round as plain data for the view: no project, runtime or state, only what a screen
 * shows. Rows hold the stored (frozen) resources, so building it costs one pass over the state.
 */
export interface RoundView {
  readonly number: number;
  readonly trigger: WatchRound['trigger'];
  /** Display paths of the files that triggered the round. */
  readonly changed: readonly string[];
  /** Of {@link changed}, the files deleted; absent: none. */
  readonly removed?: readonly string[];
  readonly files: number;
  readonly status: RoundStatus;
  /** Why it did not converge, or the error that stopped the round. */
  readonly reason?: string;
  /** Resources created, updated and destroyed by this round (the user's and the controllers'). */
  readonly counts: {
    readonly created: number;
    readonly updated: number;
    readonly destroyed: number;
  };
  readonly resources: number;
  /** Milliseconds; absent with `--stable`. */
  readonly wallTime?: number;
  readonly cost: WatchRound['cost'];
  /**
   * The round's findings: the manifests', the controllers' and the convergence's (as `cosi
   * check` reports them), and a fault of the project's code that stopped it.
   */
  readonly findings: readonly Finding<string>[];
  /** The round applied nothing and an earlier good state is still running. */
  readonly lastGoodRunning: boolean;
  readonly config?: string;
  readonly groups: readonly TypeGroup[];
  readonly controllers: readonly ControllerRow[];
  /** The controller graph, for lineage. */
  readonly graph?: DependencyGraph;
  /** The record of the project's run (when recorded), which the resource detail explains from. */
  readonly record?: RunRecord;
  /** The manifest resource with a key, for the resource detail's `file:line:col`. */
  readonly manifest?: ManifestLookup;
  /** Why `-t` selects nothing: an unknown or ambiguous type. */
  readonly queryError?: string;
  /** The last writes of each resource seen by the view (newest last), by key. */
  readonly writes: ReadonlyMap<string, readonly WriteRecord[]>;
}

/** Options of {@link createRoundViews}. */
export interface RoundViewOptions {
  /** Omit wall times. */
  readonly stable?: boolean;
  /** How many writes per resource {@link RoundView.writes} keeps. Default 5. */
  readonly keepWrites?: number;
  /** `-t` / `-n`: show only these types (any alias) and this namespace. */
  readonly query?: { readonly type?: string | readonly string[]; readonly namespace?: string };
}

/** What {@link createRoundViews} returns: a round's view, and a measure of its work. */
export interface RoundViews {
  (round: WatchRound): RoundView;
  /**
   * How many rows the last round built: every row when it diffed the whole state (the first
   * round, a restart), else those of the resources that changed and of those the round before
   * marked; the other rows and groups are the previous round's.
   */
  readonly rowsBuilt: number;
}

/**
 * Turns watch rounds into {@link RoundView}s. Stateful: a change marker needs the previous
 * round's state. When the round's snapshot says what changed since the previous one (a
 * `SnapshotTracker`'s), only the rows of those resources, and of those marked the round before,
 * are built again; otherwise it diffs the whole state by pointer and version (stored resources
 * are frozen, so an unchanged resource is the same object and costs one comparison).
 */
export function createRoundViews(options: RoundViewOptions = {}): RoundViews {
  const keep = options.keepWrites ?? 5;
  let previous: readonly Resource[] = [];
  let previousProject: WatchRound['project'];
  /** The groups of the last applied round, and the rows it marked, by type. */
  let previousGroups: readonly TypeGroup[] | undefined;
  let previousMarked = new Map<string, ResourceRow[]>();
  let rowsBuilt = 0;
  const writes = new Map<string, WriteRecord[]>();

  const record = (key: string, entry: WriteRecord): void => {
    let list = writes.get(key);
    if (!list) writes.set(key, (list = []));
    list.push(entry);
    if (list.length > keep) list.shift();
  };

  const toView = (round: WatchRound): RoundView => {
    const { project, snapshot, report } = round;
    const counts = { created: 0, updated: 0, destroyed: 0 };
    let groups: TypeGroup[] = [];
    rowsBuilt = 0;
    let queryError: string | undefined;
    let onlyTypes: ReadonlySet<string> | undefined;
    const asked = options.query?.type;
    if (project && asked !== undefined) {
      try {
        const names = typeof asked === 'string' ? [asked] : asked;
        onlyTypes = new Set(names.map((name) => project.registry.resolve(name).type));
      } catch (error) {
        if (!(error instanceof TypeResolutionError)) throw error;
        queryError = error.message;
      }
    }
    const namespace = options.query?.namespace;
    const shown = (resource: Resource): boolean =>
      queryError === undefined &&
      (onlyTypes === undefined || onlyTypes.has(resource.metadata.type)) &&
      (namespace === undefined || resource.metadata.namespace === namespace);
    // After a restart versions start again at 1: compare with the old state by content.
    const restarted = project !== previousProject;
    const note = (marker: Exclude<ChangeMarker, ' '>, resource: Resource): void => {
      if (marker === '+') counts.created++;
      else if (marker === '~') counts.updated++;
      else counts.destroyed++;
      record(pointerKey(resource.metadata), {
        round: round.number,
        marker,
        version: resource.metadata.version,
        owner: resource.metadata.owner,
      });
    };
    const changes = snapshot?.changes;
    if (
      project &&
      snapshot &&
      round.applied &&
      !restarted &&
      previousGroups !== undefined &&
      changes !== undefined &&
      changes.since === previous
    ) {
      // Only what changed since the previous round, and what that round marked.
      const edits = new Map<string, RowEdit[]>();
      const editsOf = (type: string): RowEdit[] => {
        let list = edits.get(type);
        if (!list) edits.set(type, (list = []));
        return list;
      };
      for (const [type, rows] of previousMarked) editsOf(type).push(...unmarkRows(rows));
      const marked = new Map<string, ResourceRow[]>();
      const mark = (row: ResourceRow): void => {
        const type = row.resource.metadata.type;
        let list = marked.get(type);
        if (!list) marked.set(type, (list = []));
        list.push(row);
      };
      for (const { before, after } of changes.list) {
        const resource = (after ?? before) as Resource;
        if (resource.metadata.type === RESOURCE_DEFINITION_TYPE || !shown(resource)) continue;
        let row: ResourceRow | undefined;
        if (before === undefined) {
          note('+', resource);
          mark((row = { marker: '+', resource }));
        } else if (after === undefined) {
          note('-', before);
          mark((row = { marker: '-', resource: before, previous: before }));
        } else if (isNewVersion(before, after)) {
          note('~', after);
          mark((row = { marker: '~', resource: after, previous: before }));
        } else {
          row = { marker: ' ', resource: after };
        }
        editsOf(resource.metadata.type).push(putRow(row));
      }
      const byType = new Map(previousGroups.map((g) => [g.type, g]));
      for (const [type, list] of edits) {
        rowsBuilt += list.filter((e) => e.row !== undefined).length;
        const rows = patchRows(byType.get(type)?.rows ?? [], list);
        if (rows.length > 0) {
          byType.set(type, typeGroup(project.registry, type, rows, byType.get(type)));
        } else byType.delete(type);
      }
      groups = [...byType.values()].sort((a, b) => compareStrings(a.type, b.type));
      previous = snapshot.resources;
      previousGroups = groups;
      previousMarked = marked;
    } else if (project && snapshot && round.applied) {
      const byType = new Map<string, ResourceRow[]>();
      const marked = new Map<string, ResourceRow[]>();
      const rowsOf = (type: string): ResourceRow[] => {
        let rows = byType.get(type);
        if (!rows) byType.set(type, (rows = []));
        return rows;
      };
      const markedOf = (type: string): ResourceRow[] => {
        let rows = marked.get(type);
        if (!rows) marked.set(type, (rows = []));
        return rows;
      };
      // Both snapshots are sorted by type, namespace and id: one merge pass, no keys. An
      // unchanged resource is the same frozen object, so most steps are one comparison.
      const before = previous;
      const after = snapshot.resources;
      let i = 0;
      let j = 0;
      while (i < before.length || j < after.length) {
        const old = before[i];
        const now = after[j];
        if (old !== undefined && old === now) {
          if (shown(now)) rowsOf(now.metadata.type).push({ marker: ' ', resource: now });
          i++;
          j++;
          continue;
        }
        const order =
          old === undefined
            ? 1
            : now === undefined
              ? -1
              : comparePointers(old.metadata, now.metadata);
        if (order < 0 && old !== undefined) {
          i++;
          if (!shown(old)) continue;
          note('-', old);
          const row: ResourceRow = { marker: '-', resource: old, previous: old };
          rowsOf(old.metadata.type).push(row);
          markedOf(old.metadata.type).push(row);
        } else if (order > 0 && now !== undefined) {
          j++;
          if (!shown(now)) continue;
          note('+', now);
          const row: ResourceRow = { marker: '+', resource: now };
          rowsOf(now.metadata.type).push(row);
          markedOf(now.metadata.type).push(row);
        } else if (old !== undefined && now !== undefined) {
          i++;
          j++;
          if (!shown(now)) continue;
          const changed = restarted ? !sameContent(old, now) : isNewVersion(old, now);
          if (changed) note('~', now);
          const row: ResourceRow = changed
            ? { marker: '~', resource: now, previous: old }
            : { marker: ' ', resource: now };
          rowsOf(now.metadata.type).push(row);
          if (changed) markedOf(now.metadata.type).push(row);
        }
      }
      const shownBefore = new Map((previousGroups ?? []).map((g) => [g.type, g]));
      for (const [type, rows] of byType) {
        rowsBuilt += rows.length;
        groups.push(typeGroup(project.registry, type, rows, shownBefore.get(type)));
      }
      previous = snapshot.resources;
      previousProject = project;
      previousGroups = groups;
      previousMarked = marked;
    } else if (project && snapshot) {
      // Nothing applied: the last good state, unmarked.
      for (const [type, rows] of groupUnchanged(snapshot.resources.filter(shown))) {
        groups.push(typeGroup(project.registry, type, rows));
      }
    }

    const controllers: ControllerRow[] = (report?.controllers ?? []).map((c) => ({
      name: c.name,
      condition: c.condition,
      reconciles: c.reconciles,
      writes: c.writes,
      errors: c.errors,
      ...(c.lastError !== undefined ? { lastError: errorText(c.lastError) } : {}),
      failingItems: c.failingItems.length,
      ...(c.failingItems.length > 0
        ? {
            failing: c.failingItems.slice(0, MAX_FAILING_ITEMS).map((item) => ({
              resource: formatPointer(item.pointer),
              attempts: item.attempts,
              error: errorText(item.error),
            })),
          }
        : {}),
      ...(c.retryIn !== undefined ? { retryIn: c.retryIn } : {}),
    }));
    if (controllers.length === 0 && project) {
      for (const name of project.runtime.controllerNames()) {
        const status = project.runtime.status(name);
        controllers.push({
          name,
          condition: status?.condition ?? 'idle',
          reconciles: 0,
          writes: 0,
          errors: 0,
          ...(status?.lastError ? { lastError: status.lastError.message } : {}),
          failingItems: 0,
        });
      }
    }

    let status: RoundStatus;
    let reason: string | undefined;
    if (round.error !== undefined) {
      status = 'error';
      reason = round.error;
    } else if (!round.applied || !report) {
      status = 'not-applied';
    } else if (report.converged) {
      status = 'converged';
    } else {
      status = report.reason === 'failing' ? 'failing' : 'not-converged';
      reason = describeReason(report.reason);
    }
    if (status === 'converged' && controllers.some((c) => c.errors > 0)) status = 'failing';

    return {
      number: round.number,
      trigger: round.trigger,
      changed: round.changed,
      ...(round.removed !== undefined ? { removed: round.removed } : {}),
      files: round.files.length,
      status,
      ...(reason !== undefined ? { reason } : {}),
      counts,
      resources: snapshot?.resources.length ?? 0,
      ...(options.stable ? {} : { wallTime: round.wallTime }),
      cost: round.cost,
      findings: [...round.findings, ...(round.runFindings ?? []), ...(round.stateFindings ?? [])],
      lastGoodRunning: !round.applied && project !== undefined,
      ...(round.config !== undefined ? { config: round.config } : {}),
      groups,
      controllers,
      ...(project ? { graph: project.runtime.dependencyGraph() } : {}),
      ...(project?.record ? { record: project.record } : {}),
      ...(project ? { manifest: manifestLookup(project.applier) } : {}),
      ...(queryError !== undefined ? { queryError } : {}),
      writes,
    };
  };
  return Object.defineProperty(toView, 'rowsBuilt', { get: () => rowsBuilt }) as RoundViews;
}

/** The applier's manifests by key; the view keeps no copy of them. */
function manifestLookup(applier: ResourceApplier<ManifestResource>): ManifestLookup {
  return (key) => applier.appliedAt(key);
}

/**
 * A type's rows, with what the view needs of its definition (if it has one). A type the registry
 * no longer defines (its CRD or RGD went with its last resources, shown destroyed this round)
 * keeps the name and columns it was shown with (`shown`, its group of the round before).
 */
function typeGroup(
  registry: DefinitionRegistry,
  type: string,
  rows: readonly ResourceRow[],
  shown?: TypeGroup,
): TypeGroup {
  const definition = registry.get(type);
  if (definition === undefined && shown !== undefined) return { ...shown, rows };
  return {
    type,
    displayType: definition?.displayType ?? type,
    names: [type.toLowerCase(), ...(definition?.allAliases ?? [])],
    // As the default table's (and kubectl's): a column of priority above 0 is for `-o wide`.
    columns: (definition?.printColumns ?? []).filter(
      (c) => !(c.priority !== undefined && c.priority > 0),
    ),
    ...(definition?.kubernetes === undefined ? {} : { kind: definition.kubernetes }),
    sensitive: definition?.sensitivity === 'sensitive',
    ...(withheldFieldsOf(definition).length > 0 ? { withheld: withheldFieldsOf(definition) } : {}),
    rows,
  };
}

function groupUnchanged(resources: readonly Resource[]): Map<string, ResourceRow[]> {
  const byType = new Map<string, ResourceRow[]>();
  for (const resource of resources) {
    const type = resource.metadata.type;
    let rows = byType.get(type);
    if (!rows) byType.set(type, (rows = []));
    rows.push({ marker: ' ', resource });
  }
  return byType;
}

/** A row's pointer key (computed when asked: most rows are never looked up). */
export function rowKey(row: ResourceRow): string {
  return pointerKey(row.resource.metadata);
}

/** By type, then namespace, then id: the order of a snapshot. */
function comparePointers(a: Resource['metadata'], b: Resource['metadata']): number {
  return (
    compareStrings(a.type, b.type) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.id, b.id)
  );
}

function isNewVersion(before: Resource, after: Resource): boolean {
  return before !== after && before.metadata.version !== after.metadata.version;
}

function sameContent(a: Resource, b: Resource): boolean {
  return (
    a.metadata.owner === b.metadata.owner &&
    a.metadata.phase === b.metadata.phase &&
    isDeepStrictEqual(a.metadata.labels, b.metadata.labels) &&
    isDeepStrictEqual(a.metadata.annotations, b.metadata.annotations) &&
    isDeepStrictEqual(a.spec, b.spec)
  );
}
