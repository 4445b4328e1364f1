import { defineGraph } from './graph-definition.js';
import { runProject, type ProjectRun, type RunOutcome } from '../../app/run-project.js';
import { resourceGraphDags } from '../../app/declared-controllers.js';
import { resourceGraphsOf } from '../../app/explain/template-origins.js';
import { TypeResolutionError } from '../../engine/resource/definition-registry.js';
import { typeErrorMessage } from '../../app/resource-query.js';
import type { DependencyGraph } from '../../engine/runtime/dependency-graph.js';
import { hasErrors } from '../../loaders/finding.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { parseFormat, toRunOptions, type CommonFlags } from '../options.js';
import type { GraphFilter } from '../render/graph/filter-graph.js';
import { focusGraphView } from '../render/graph/focus-graph.js';
import { toPointer, type Pointer } from '../../engine/resource/pointer.js';
import { buildGraphView, type GraphFailures, type GraphView } from '../render/graph/graph-view.js';
import { itemFailures, reportFailures } from '../../app/report/report-failures.js';
import type { ConvergenceReport } from '../../engine/runtime/convergence.js';
import { renderReportedRun, type ReportedRun } from '../render/reported-run.js';
import { GRAPH_FORMATS, renderGraph, type GraphFormat } from '../render/graph/render-graph.js';
import { mermaidSizeWarning } from '../render/graph/mermaid-limits.js';
import { createColors, renderFindings } from '../render/report.js';
import { convergeAndSelect } from './converge-and-select.js';
import { writeTraceFile, type TraceFlags } from '../trace-file.js';
import { readStateFlag } from '../state-option.js';
import { checkNodeLimit, parseMaxNodes } from '../graph-node-limit.js';
import { drawnNodeCount } from '../render/graph/drawn-nodes.js';
import { plural } from '../render/plural.js';

export interface GraphFlags extends CommonFlags, TraceFlags {
  output: string;
  resources?: boolean;
  /** With --resources: the instances from a running system's state instead of a run. */
  state?: string;
  /** With --state: how long a request waits for etcd (`5s`). */
  requestTimeout?: string;
  controller?: string[];
  type?: string[];
  depth?: string;
  /** `TYPE/ID` or `NAMESPACE/TYPE/ID`: only the resources around this one (implies --resources). */
  focus?: string;
  /** With `-o svg`: refuse a graph of more nodes (`0`: no limit). */
  maxNodes?: string;
}

/**
 * What `cosi graph` shows: the graph view (controllers and types, with `--resources` their
 * instances), and the run it came from: its findings, and with `--resources` its report.
 */
export type GraphResult =
  /** The controller graph of a project registered but not run (and `--state`'s instances). */
  | {
      readonly from: 'project';
      readonly findings: ProjectRun['manifests']['findings'];
      readonly view?: GraphView;
      /** No controller is registered: said on stderr unless quiet. */
      readonly empty: boolean;
      /**
       * `--resources` on manifests with errors: the controllers were not run, and the view holds
       * this many resources, those that loaded. Said on stderr.
       */
      readonly loaded?: number;
    }
  /** `--resources`: the converged run's instances. */
  | { readonly from: 'run'; readonly run: ReportedRun<GraphView> };

/** `cosi graph -f PATH...`: the controller graph, and with `--resources` the converged instances. */
export const graphCommand: CliCommand<[string[], GraphFlags], GraphResult> = {
  define: defineGraph,
  run: graph,
  render: renderGraphResult,
};

export async function graph(
  io: CliIo,
  paths: string[],
  flags: GraphFlags,
): Promise<CommandResult<GraphResult>> {
  const format = parseFormat(flags.output, GRAPH_FORMATS);
  const maxNodes = parseMaxNodes(flags.maxNodes);
  // Only SVG is laid out here, in time that grows faster than the graph: the others are linear.
  const guard = (view: GraphView): void => {
    if (format === 'svg') checkNodeLimit(drawnNodeCount(view), maxNodes);
  };
  const depth = parseDepth(flags);
  if (flags.state !== undefined && !flags.resources) {
    throw new CliError("--state: give --resources too (the controller graph is the project's)");
  }
  if (flags.trace !== undefined) {
    // Only --resources (or --focus) runs the project here; --state reads one that runs elsewhere.
    if (flags.state !== undefined || !(flags.resources || flags.focus !== undefined)) {
      throw new CliError(
        '--trace: records the run of graph --resources (or --focus), without --state: nothing else runs the project',
      );
    }
    await (await import('../output-file.js')).checkOutputPath(flags.trace, io.cwd);
  }
  // The kinds a state could not read (a corrupt value) are said on stderr as it is read.
  const state = await readStateFlag(flags.state, flags.requestTimeout, io.stderr);
  if (!state && (flags.resources || flags.focus !== undefined)) {
    const run = await convergeAndSelect(
      flags,
      io,
      paths,
      (outcome) => resourcesView(outcome, flags, depth),
      // The lineage of the instances is what the run really read and wrote. Manifests with
      // errors stop the run, but not the picture of what loaded (see `notRunGraph`).
      { record: true, openInvalid: true },
    );
    const opened = run.run.outcome;
    if (!run.converged && run.failure === undefined && opened && !opened.report) {
      return notRunGraph(run.run, opened, flags, depth, guard);
    }
    if (run.converged) guard(run.converged.data);
    return { exitCode: run.exitCode, result: { from: 'run', run } };
  }
  // The controllers from the project (registered, never run); with --state the instances too.
  // Manifests with errors hide only what they would define: the graph of what loaded is still
  // drawn, its findings said beside it (exit 1), as kubectl and kubeconform go on past a bad file.
  const run = await runProject({
    ...(await toRunOptions(flags, io, { manifestsOptional: true, paths })),
    converge: false,
    openInvalid: true,
  });
  const findings = run.manifests.findings;
  const exitCode = hasErrors(findings) ? EXIT.findings : EXIT.ok;
  if (!run.outcome) {
    return { exitCode: EXIT.findings, result: { from: 'project', findings, empty: false } };
  }
  const outcome = state ? { ...run.outcome, snapshot: state.snapshot } : run.outcome;
  const graph = outcome.project.runtime.dependencyGraph();
  const whole = buildGraphView(graph, {
    ...filterOption(outcome, graph, flags, depth),
    resourceGraphs: resourceGraphDags(outcome.project.registry),
    ...(state
      ? { resources: state.snapshot.resources, isClusterScoped: clusterScopeOf(outcome) }
      : {}),
  });
  const view =
    flags.focus === undefined
      ? whole
      : focusGraphView(whole, { resource: resolveFocus(outcome, graph, flags.focus), depth });
  guard(view);
  return {
    exitCode,
    result: { from: 'project', findings, view, empty: !state && graph.controllers.length === 0 },
  };
}

/**
 * The graph of a project's instances: every resource of the outcome under its type, with its
 * lineage from the run's record, and what failed when the controllers ran.
 */
function resourcesView(outcome: RunOutcome, flags: GraphFlags, depth: number): GraphView {
  const graph = outcome.project.runtime.dependencyGraph();
  const graphs = resourceGraphsOf(outcome.project.registry);
  const view = buildGraphView(graph, {
    ...filterOption(outcome, graph, flags, depth),
    resourceGraphs: resourceGraphDags(outcome.project.registry),
    resources: outcome.snapshot.resources,
    ...(outcome.project.record ? { record: outcome.project.record } : {}),
    resourceGraph: (c) => graphs.get(c),
    isClusterScoped: clusterScopeOf(outcome),
    ...(outcome.report ? { failures: graphFailures(outcome.report) } : {}),
  });
  return flags.focus === undefined
    ? view
    : focusGraphView(view, { resource: resolveFocus(outcome, graph, flags.focus), depth });
}

/**
 * `--resources` on manifests with errors: the controllers are not run (as `cosi apply` and
 * `cosi check` refuse to), but the project is drawn with the resources that loaded, the findings
 * beside it and a note that nothing was derived (exit 1), as `cosi report` draws it and as
 * kubectl prints what it could read past a bad file. A flag the loaded project cannot satisfy
 * (`--focus` on a resource that did not load) is said after the findings.
 */
function notRunGraph(
  run: ProjectRun,
  opened: RunOutcome,
  flags: GraphFlags,
  depth: number,
  guard: (view: GraphView) => void,
): CommandResult<GraphResult> {
  let view: GraphView;
  try {
    view = resourcesView(opened, flags, depth);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    const failed = { run, exitCode: error.exitCode, failure: error.message };
    return { exitCode: error.exitCode, result: { from: 'run', run: failed } };
  }
  guard(view);
  return {
    exitCode: EXIT.findings,
    result: {
      from: 'project',
      findings: run.manifests.findings,
      view,
      empty: false,
      loaded: opened.snapshot.resources.length,
    },
  };
}

/** What failed in the run, as the report marks it red: the same controllers and resources. */
function graphFailures(report: ConvergenceReport): GraphFailures {
  const controllers = report.reason === 'failing' ? reportFailures(report) : [];
  return {
    controllers: [...new Set(controllers.map((f) => f.controller))],
    resources: new Set(itemFailures(report).keys()),
  };
}

/** Whether a type of the project is a cluster-scoped kind. */
function clusterScopeOf(outcome: RunOutcome): (type: string) => boolean {
  return (type) => outcome.project.registry.get(type)?.kubernetes?.namespaced === false;
}

/** The graph to stdout in the `-o` format; findings, notes and a run's report to stderr. */
export async function renderGraphResult(
  io: CliIo,
  { result }: CommandResult<GraphResult>,
  _paths: string[],
  flags: GraphFlags,
): Promise<void> {
  const format = parseFormat(flags.output, GRAPH_FORMATS);
  if (result.from === 'run') {
    // SVG is laid out asynchronously: the text is ready before the run's report is printed.
    const data = result.run.converged?.data;
    const text = data ? await renderGraph(data, format) : '';
    renderReportedRun(io, result.run, flags, () => io.stdout.write(text));
    if (data) warnOfSize(io, data, format, text);
    const project = result.run.run.outcome?.project;
    if (flags.trace !== undefined && project?.record) {
      await writeTraceFile(flags.trace, project.record, {
        cwd: io.cwd,
        stable: flags.stable === true,
        registry: project.registry,
      });
    }
    return;
  }
  io.stderr.write(
    renderFindings(result.findings, createColors(useColor(io, flags.color)), {
      quiet: flags.quiet === true,
    }),
  );
  if (!result.view) return;
  if (result.loaded !== undefined) {
    // Not a summary: it says what the graph leaves out, so it is said even with --quiet.
    io.stderr.write(
      `cosi: the manifests have errors, so the controllers were not run: the graph shows the ${plural(result.loaded, 'resource')} that loaded, and nothing derived from them\n`,
    );
  }
  if (result.empty && !flags.quiet) {
    io.stderr.write('cosi: no controllers registered: the graph is empty\n');
  }
  const text = await renderGraph(result.view, format);
  io.stdout.write(text);
  warnOfSize(io, result.view, format, text);
}

/** A warning, as other warnings are (exit code unchanged), for a graph Mermaid will not draw. */
function warnOfSize(io: CliIo, view: GraphView, format: GraphFormat, text: string): void {
  if (format !== 'mermaid') return;
  const warning = mermaidSizeWarning(view, text);
  if (warning !== undefined) io.stderr.write(`cosi: ${warning}\n`);
}

function parseDepth(flags: GraphFlags): number {
  if (flags.focus !== undefined && (flags.controller || flags.type)) {
    throw new CliError('--focus: give it alone, without --controller or --type');
  }
  if (flags.depth === undefined) return 1;
  if (!flags.controller && !flags.type && flags.focus === undefined) {
    throw new CliError('--depth: give --controller or --type (or --focus) to say around what');
  }
  if (flags.depth === 'all') return Number.POSITIVE_INFINITY;
  const depth = Number(flags.depth);
  if (!/^\d+$/.test(flags.depth) || !Number.isSafeInteger(depth)) {
    throw new CliError(
      `--depth: expected a whole number of hops or "all", got ${JSON.stringify(flags.depth)}`,
    );
  }
  return depth;
}

/** The filter of the flags, names checked against the project. */
function filterOption(
  run: RunOutcome,
  graph: DependencyGraph,
  flags: GraphFlags,
  depth: number,
): { filter?: GraphFilter } {
  if (!flags.controller && !flags.type) return {};
  const names = graph.controllers.map((c) => c.name);
  for (const name of flags.controller ?? []) {
    if (!names.includes(name)) {
      throw new CliError(
        `--controller: no controller named ${JSON.stringify(name)} (registered: ${names.join(', ') || 'none'})`,
      );
    }
  }
  return {
    filter: {
      controllers: flags.controller ?? [],
      types: (flags.type ?? []).map((name) => resolveType(run, graph, name)),
      depth,
    },
  };
}

/**
 * `--focus TYPE/ID` or `NAMESPACE/TYPE/ID`: the one resource of the run it names. An id may hold
 * a `/` itself (`Things.example.org/a/b`): with more than two parts, the second names the type
 * when it is one (`NAMESPACE/TYPE/ID...`), else the first does (`TYPE/ID...`).
 */
function resolveFocus(run: RunOutcome, graph: DependencyGraph, focus: string): Pointer {
  const parts = focus.split('/');
  if (parts.length < 2 || parts.slice(0, 2).some((p) => p === '') || parts.at(-1) === '') {
    throw new CliError(
      `--focus: expected TYPE/ID or NAMESPACE/TYPE/ID, got ${JSON.stringify(focus)}`,
    );
  }
  const namespaced = parts.length > 2 && isType(run, graph, parts[1] as string);
  const [namespace, typeName, id] = namespaced
    ? [parts[0], parts[1] as string, parts.slice(2).join('/')]
    : [undefined, parts[0] as string, parts.slice(1).join('/')];
  const type = resolveType(run, graph, typeName, '--focus');
  const matches = run.snapshot.resources
    .map((r) => r.metadata)
    .filter((m) => m.type === type && m.id === id)
    .filter((m) => namespace === undefined || m.namespace === namespace);
  if (matches.length === 0) {
    throw new CliError(`--focus: no resource ${JSON.stringify(focus)} (type ${type})`);
  }
  if (matches.length > 1) {
    const spaces = matches.map((m) => m.namespace).join(', ');
    throw new CliError(
      `--focus: ${JSON.stringify(focus)} is in several namespaces (${spaces}): give NAMESPACE/TYPE/ID`,
    );
  }
  return toPointer(matches[0] as Pointer);
}

/** Whether `name` names a type of the run, as `--focus` takes it. */
function isType(run: RunOutcome, graph: DependencyGraph, name: string): boolean {
  try {
    resolveType(run, graph, name, '--focus');
    return true;
  } catch (error) {
    if (error instanceof CliError) return false;
    throw error;
  }
}

/** Any alias of a defined type; the exact name (any case) of a type that has no definition. */
function resolveType(
  run: RunOutcome,
  graph: DependencyGraph,
  name: string,
  flag = '--type',
): string {
  try {
    return run.project.registry.resolve(name).type;
  } catch (error) {
    if (!(error instanceof TypeResolutionError)) throw error;
    if (error.code === 'unknown-type') {
      const known = new Set([
        ...graph.types,
        ...run.snapshot.resources.map((r) => r.metadata.type),
      ]);
      const matches = [...known].filter((t) => t.toLowerCase() === name.toLowerCase());
      if (matches.length === 1) return matches[0] as string;
    }
    const others = [
      ...new Set([...graph.types, ...run.snapshot.resources.map((r) => r.metadata.type)]),
    ];
    throw new CliError(`${flag}: ${typeErrorMessage(error, run.project.registry, others)}`);
  }
}
