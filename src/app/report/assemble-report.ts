import { pointerKey } from '../../engine/resource/pointer.js';
import { shortenMessage } from '../../loaders/shorten.js';
import { shownSpec } from '../shown-spec.js';
import type { Resource } from '../../engine/resource/resource.js';
import type { DependencyGraph } from '../../engine/runtime/dependency-graph.js';
import {
  caseFailed,
  isFailure,
  summarize,
  summarizeResources,
  checkTotals,
  type CheckResult,
} from '../check/check-result.js';
import { traceLineage } from '../explain/resource-lineage.js';
import { resourceGraphsOf } from '../explain/template-origins.js';
import { resourceGraphDags } from '../declared-controllers.js';
import { explainSourceOf, type ProjectRun } from '../run-project.js';
import { reportLineage, type ReportLineage } from './report-lineage.js';
import { createExcerptReader } from './finding-excerpt.js';
import { sensitiveDocuments } from './sensitive-documents.js';
import type { DefinitionRegistry } from '../../engine/resource/definition-registry.js';
import type {
  ReportController,
  ReportData,
  ReportFinding,
  ReportItemFailure,
  ReportResource,
  ReportSummaryText,
  ReportVerdict,
} from './report-data.js';
import { reportTimeline } from './report-timeline.js';
import { definitionRows } from './definition-rows.js';
import { itemFailures, reportFailures } from './report-failures.js';
import type { ConvergenceReport } from '../../engine/runtime/convergence.js';

const NO_GRAPH: DependencyGraph = { controllers: [], types: [], edges: [] };

/** What the report of a project opened but not run says (see `openInvalid`). */
const NOT_RUN =
  'The controllers were not run: the manifests have errors. The graph is the project’s, and the resources are those that loaded.';

/** A report lists at most this many findings; the rest are counted. */
export const MAX_REPORT_FINDINGS = 2_000;

export interface ReportInput {
  /** What the check found (a check that could not run: its one `setup` case). */
  readonly result: CheckResult;
  /** The run behind it; none when the check could not run. */
  readonly run?: ProjectRun;
  /** For the excerpts: findings name files relative to it. */
  readonly cwd: string;
  readonly title: string;
  /** The check's summary as its text format prints it (`checkSummaryText`). */
  readonly summaryText: ReportSummaryText;
}

/**
 * Gathers what an HTML report shows from a check and its run: the verdict and summary, every
 * finding with a few lines of its source, the controllers and their counts, every resource with
 * where it came from (its lineage as `cosi graph --resources` and `cosi explain` trace it), and
 * the timeline of a recorded run. Linear in findings, resources and reconciles.
 */
export function assembleReport(input: ReportInput): ReportData {
  const { result, run } = input;
  const outcome = run?.outcome;
  const report = outcome?.report;
  const summary = summarize(result);
  const findings = reportFindings(result, input.cwd, run?.manifests.registry);
  const graph: DependencyGraph = outcome?.project.runtime.dependencyGraph() ?? NO_GRAPH;
  const dags = outcome ? resourceGraphDags(outcome.project.registry) : [];
  const shown = outcome
    ? reportResources(run, outcome.snapshot.resources, graph, report && itemFailures(report))
    : { resources: [] };
  const rows = [
    ...shown.resources,
    ...definitionRows(result, shown.resources, run?.manifests.registry),
  ];
  const linked = linkFindings(findings.slice(0, MAX_REPORT_FINDINGS), rows);
  return {
    title: input.title,
    verdict: verdictOf(result, report),
    summary: {
      text: {
        notes: input.summaryText.notes,
        lines: input.summaryText.lines,
        total: input.summaryText.total,
      },
      classes: summary,
      ...checkTotals(result),
      manifests: summarizeResources(result),
      ...(result.unrendered?.length ? { unrendered: result.unrendered } : {}),
      ...(report
        ? {
            convergence: {
              converged: report.converged,
              reason: report.reason,
              rounds: report.rounds,
              reconciles: report.reconciles,
              writes: report.writes,
              errors: report.errors,
              elapsed: report.elapsed,
            },
          }
        : {}),
    },
    ...(report && report.reason === 'failing' ? { failures: reportFailures(report) } : {}),
    findings: linked,
    moreFindings: Math.max(0, findings.length - MAX_REPORT_FINDINGS),
    graph,
    ...(dags.length > 0 ? { resourceGraphs: dags } : {}),
    controllers: (report?.controllers ?? []).map((c): ReportController => ({
      name: c.name,
      kind: c.kind,
      condition: c.condition,
      reconciles: c.reconciles,
      writes: c.writes,
      errors: c.errors,
      ...(c.lastError ? { lastError: shortenMessage(c.lastError.message) } : {}),
    })),
    ...shown,
    resources: rows,
    ...(report && outcome.project.record
      ? { timeline: reportTimeline(outcome.project.record) }
      : {}),
    ...(outcome && !report ? { notRun: NOT_RUN } : {}),
  };
}

/**
 * As the exit code: controllers that kept failing until they were given up on (`failing`) fail
 * the check (exit 1); only a bound hit (writes, time) or an abort did not converge (exit 3).
 */
function verdictOf(result: CheckResult, report: ConvergenceReport | undefined): ReportVerdict {
  if (result.cases.some((c) => c.check === 'setup')) return 'not-run';
  if (report && !report.converged && report.reason !== 'failing') return 'not-converged';
  return result.cases.some((c) => caseFailed(c, result)) ? 'failed' : 'passed';
}

function reportFindings(
  result: CheckResult,
  cwd: string,
  registry: DefinitionRegistry | undefined,
): PlacedFinding[] {
  const excerpt = createExcerptReader(cwd, registry && sensitiveDocuments(registry));
  const findings: PlacedFinding[] = [];
  for (const c of result.cases) {
    for (const f of c.findings) {
      const at = excerpt(f.file, f.line);
      findings.push({
        ...(c.resource ? { document: c.resource } : {}),
        ...(f.related ? { related: f.related } : {}),
        check: c.check,
        name: c.name,
        code: f.code,
        severity: f.severity,
        failure: isFailure(f, result),
        message: f.message,
        file: f.file,
        line: f.line,
        col: f.col,
        pointer: f.pointer,
        ...(at ? { excerpt: at } : {}),
        ...(f.diff !== undefined ? { diff: f.diff } : {}),
      });
    }
  }
  return findings;
}

/** A finding with the document it is in and, for a duplicate, where the first one is. */
interface PlacedFinding extends ReportFinding {
  readonly document?: { readonly file: string; readonly line: number; readonly name: string };
  readonly related?: { readonly file: string; readonly line: number };
}

/**
 * Each finding with the key of the resource it is about, when the table shows it: the resource
 * (or definition) its document made (a warning on a loaded manifest), else, for a name defined
 * twice, the one the first definition made, whose document holds the duplicate finding's
 * `related` place (its id checked, so a document that made no resource is never taken for the
 * one before it), for every finding of the second document.
 */
function linkFindings(
  findings: readonly PlacedFinding[],
  resources: readonly ReportResource[],
): ReportFinding[] {
  const bySource = new Map<string, ReportResource>();
  const starts = new Map<string, number[]>();
  for (const r of resources) {
    if (r.source === undefined) continue;
    bySource.set(r.source, r);
    const cut = r.source.lastIndexOf(':');
    const file = r.source.slice(0, cut);
    const list = starts.get(file) ?? [];
    list.push(Number(r.source.slice(cut + 1)));
    starts.set(file, list);
  }
  for (const list of starts.values()) list.sort((a, b) => a - b);
  const documentAt = (file: string, line: number): ReportResource | undefined => {
    const list = starts.get(file) ?? [];
    let start: number | undefined;
    for (const s of list) if (s <= line) start = s;
    return start === undefined ? undefined : bySource.get(`${file}:${start}`);
  };
  // A second definition of a name is about the first one's resource, each of its findings (a
  // CRD defined again is too large as well): by the document, from its duplicate finding's place.
  const firstOf = new Map<string, ReportResource>();
  for (const { document, related } of findings) {
    if (!document || !related) continue;
    const first = documentAt(related.file, related.line);
    if (first?.id === document.name) firstOf.set(`${document.file}:${document.line}`, first);
  }
  return findings.map(({ document, related: _related, ...finding }) => {
    const at = document && `${document.file}:${document.line}`;
    const resource = at && (bySource.get(at) ?? firstOf.get(at));
    return resource ? { ...finding, resource: resource.key } : finding;
  });
}

/** The resources, and their lineage as `cosi explain` traces it when the run was recorded. */
function reportResources(
  run: ProjectRun,
  resources: readonly Resource[],
  graph: DependencyGraph,
  failures: ReadonlyMap<string, ReportItemFailure> | undefined,
): { resources: ReportResource[]; lineage?: ReportLineage } {
  const { project } = run.outcome ?? {};
  const graphs = project ? resourceGraphsOf(project.registry) : undefined;
  const nodes = traceLineage(resources, graph, project?.record, {
    resourceGraph: (c) => graphs?.get(c),
    isClusterScoped: (t) => project?.registry.get(t)?.kubernetes?.namespaced === false,
  });
  const index = new Map(nodes.map((n, i) => [pointerKey(n), i]));
  const source = run.outcome && explainSourceOf(run.outcome, run.manifests.resources);
  const traced = source && reportLineage(source, resources);
  const roots = new Map(resources.map((r, i) => [pointerKey(r.metadata), traced?.roots[i]]));
  const byKey = new Map(resources.map((r) => [pointerKey(r.metadata), r]));
  const sources = new Map(run.manifests.resources.map((m) => [m.key, m.source]));
  const list = nodes.map((node): ReportResource => {
    const resource = byKey.get(pointerKey(node)) as Resource;
    const md = resource.metadata;
    const source = sources.get(pointerKey(node));
    const spec = shownSpec(project?.registry.get(md.type), resource.spec);
    const reconcile = project?.record?.writesTo(md).at(-1)?.reconcile.seq;
    const lineage = roots.get(pointerKey(node));
    const failure = failures?.get(pointerKey(node));
    return {
      key: `${md.namespace}/${md.type}/${md.id}`,
      namespace: md.namespace,
      type: md.type,
      id: md.id,
      version: md.version,
      ...(node.clusterScoped ? { clusterScoped: true } : {}),
      owner: md.owner,
      ...(md.owner === '' && node.writer !== '' ? { writer: node.writer } : {}),
      phase: md.phase,
      ...(reconcile === undefined ? {} : { reconcile }),
      ...(lineage === undefined ? {} : { lineage }),
      ...(source && node.writer === '' ? { source: `${source.file}:${source.line}` } : {}),
      ...(Object.keys(md.labels).length > 0 ? { labels: md.labels } : {}),
      ...(spec === undefined ? {} : { spec }),
      from: node.derivedFrom.flatMap((s) => {
        const i = index.get(pointerKey(s));
        return i === undefined ? [] : [[i, s.via] as const];
      }),
      ...(failure ? { failure } : {}),
    };
  });
  return { resources: list, ...(traced ? { lineage: traced.lineage } : {}) };
}
