import type { UnrenderedSource } from '../../loaders/unrendered-source.js';
import type { DependencyGraph } from '../../engine/runtime/dependency-graph.js';
import type { CheckClass, CheckCode } from '../check/check-result.js';
import type { ClassSummary, ResourceSummary } from '../check/check-result.js';
import type { LineageVia } from '../explain/resource-lineage.js';
import type { SourceExcerpt } from './finding-excerpt.js';
import type { ReportLineage } from './report-lineage.js';
import type { ReportTimeline } from './report-timeline.js';
import type { ResourceGraphDag } from '../declared-controllers.js';

/** The one-word outcome a report opens with. */
export type ReportVerdict = 'passed' | 'failed' | 'not-converged' | 'not-run';

/** A finding of the check, with a few lines of the source it points at. */
export interface ReportFinding {
  readonly check: CheckClass;
  /** The case it belongs to: a manifest, a controller, `convergence`... */
  readonly name: string;
  readonly code: CheckCode;
  readonly severity: 'error' | 'warning';
  /** Fails the check (an error, or a warning under --strict). */
  readonly failure: boolean;
  readonly message: string;
  /** Display path (relative to the working directory); empty when it is about no file. */
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly pointer: string;
  readonly excerpt?: SourceExcerpt;
  readonly diff?: string;
  /**
   * The key (`namespace/type/id`) of the resource in the report's table it is about: the one its
   * document made, or, for a resource defined twice, the first definition's.
   */
  readonly resource?: string;
}

/** A resource of the converged state, as the report's table and details show it. */
export interface ReportResource {
  /** `namespace/type/id`: the key of its node in the graph, after `resource:`. */
  readonly key: string;
  readonly namespace: string;
  readonly type: string;
  readonly id: string;
  readonly version: number;
  /** Its kind is cluster-scoped: kept in namespace `default`, it is in none. */
  readonly clusterScoped?: true;
  /** The controller that owns it; empty for a manifest and an unowned resource. */
  readonly owner: string;
  /** The controller that made an unowned resource (an RGD's nested kro instance). */
  readonly writer?: string;
  readonly phase: string;
  /** The recorded reconcile that last wrote it (its `#` on the timeline). */
  readonly reconcile?: number;
  /** Where a manifest resource is written (`file:line`). */
  readonly source?: string;
  readonly labels?: Readonly<Record<string, string>>;
  /** Left out for sensitive types, as every output leaves it out. */
  readonly spec?: unknown;
  /** Its lineage as `cosi explain` traces it: its root in the report's `lineage.versions`. */
  readonly lineage?: number;
  /** What it came from: indexes into the report's resources, and why. */
  readonly from: readonly (readonly [number, LineageVia])[];
  /** When a queue controller gave up on it: which, after how many attempts, and why. */
  readonly failure?: ReportItemFailure;
  /**
   * A definition document (a CRD, a kro RGD): a row as `check`'s summary counts it, but a type
   * of the world rather than a resource of it; with the type it defines when the project has it.
   */
  readonly definition?: { readonly defines?: string };
}

/** A queue controller's item that was still failing when the run ended. */
export interface ReportItemFailure {
  readonly controller: string;
  readonly attempts: number;
  readonly error: string;
}

/** What failed in the run, as the verdict names it: a controller, and the item it gave up on. */
export interface ReportFailure {
  readonly controller: string;
  /** The item's `namespace/type/id`; none for a whole-world controller. */
  readonly item?: string;
  readonly attempts?: number;
  readonly error: string;
}

/** A controller: what it declared and what it did in the run. */
export interface ReportController {
  readonly name: string;
  readonly kind: 'controller' | 'qcontroller';
  readonly condition?: string;
  readonly reconciles: number;
  readonly writes: number;
  readonly errors: number;
  readonly lastError?: string;
}

/** The summary `cosi check`'s text format prints, uncoloured (its renderer makes it). */
export interface ReportSummaryText {
  /** Notes above the counts: the `missing-crd` advice. */
  readonly notes: readonly string[];
  /** A line per check class, the manifests' as resources in files. */
  readonly lines: readonly string[];
  /** `N passed, N failed` over every class. */
  readonly total: string;
}

/** Everything an HTML report shows, as plain data (it is embedded in the page as JSON). */
export interface ReportData {
  /** What was checked: the paths given, or the project's directory. */
  readonly title: string;
  readonly verdict: ReportVerdict;
  readonly summary: {
    /** The summary lines `cosi check` prints under its findings: the verdict shows the same. */
    readonly text: ReportSummaryText;
    readonly classes: readonly ClassSummary[];
    readonly passed: number;
    readonly failed: number;
    readonly manifests: ResourceSummary;
    /** What the walk set aside as not manifests until rendered (charts, kustomizations). */
    readonly unrendered?: readonly UnrenderedSource[];
    readonly convergence?: {
      readonly converged: boolean;
      readonly reason: string;
      readonly rounds: number;
      readonly reconciles: number;
      readonly writes: number;
      readonly errors: number;
      /** Virtual clock ms. */
      readonly elapsed: number;
    };
  };
  /** The controllers that kept failing and the items they gave up on, in controller order. */
  readonly failures?: readonly ReportFailure[];
  readonly findings: readonly ReportFinding[];
  /** Findings left out over the cap. */
  readonly moreFindings: number;
  readonly graph: DependencyGraph;
  /** Each kro RGD's resources in render order, as `cosi graph` draws them (none: no RGD). */
  readonly resourceGraphs?: readonly ResourceGraphDag[];
  readonly controllers: readonly ReportController[];
  /** Sorted by type, namespace and id; then the definition documents, in the check's order. */
  readonly resources: readonly ReportResource[];
  /** The resources' lineage, when the run was recorded. */
  readonly lineage?: ReportLineage;
  /** When the run was recorded. */
  readonly timeline?: ReportTimeline;
  /** Why the controllers were not run although the project opened (invalid manifests). */
  readonly notRun?: string;
}
