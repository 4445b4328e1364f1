import { defineGraph } from './graph-definition.js';
import { runProject, type RunOutcome } from '../../app/run-project.js';
import { TypeResolutionError } from '../../engine/resource/definition-registry.js';
import { typeErrorMessage } from '../resource-query.js';
import type { DependencyGraph } from '../../engine/runtime/dependency-graph.js';
import { hasErrors } from '../../loaders/finding.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { parseFormat, toRunOptions, type CommonFlags } from '../options.js';
import type { GraphFilter } from '../render/graph/filter-graph.js';
import { buildGraphView } from '../render/graph/graph-view.js';
import { GRAPH_FORMATS, renderGraph } from '../render/graph/render-graph.js';
import { createColors, renderFindings } from '../render/report.js';
import { runAndReport } from './run-and-report.js';
import { readStateFlag } from '../state-option.js';

export interface GraphFlags extends CommonFlags {
  output: string;
  resources?: boolean;
  /** With --resources: the instances from a running system's state instead of a run. */
  state?: string;
  /** With --state: how long a request waits for etcd (`5s`). */
  requestTimeout?: string;
  controller?: string[];
  type?: string[];
  depth?: string;
}

/** `cosi graph -f PATH...`: the controller graph, and with `--resources` the converged instances. */
export const graphCommand: CliCommand<[string[], GraphFlags]> = { define: defineGraph, run: graph };

export async function graph(io: CliIo, paths: string[], flags: GraphFlags): Promise<CommandResult> {
  const format = parseFormat(flags.output, GRAPH_FORMATS);
  const depth = parseDepth(flags);
  if (flags.state !== undefined && !flags.resources) {
    throw new CliError("--state: give --resources too (the controller graph is the project's)");
  }
  const view = await readStateFlag(flags.state, flags.requestTimeout, io.stderr);
  if (view) {
    // The controllers from the project (registered, never run), the instances from the state.
    const run = await runProject({
      ...(await toRunOptions(flags, io, { manifestsOptional: true, paths })),
      converge: false,
    });
    io.stderr.write(
      renderFindings(run.manifests.findings, createColors(useColor(io, flags.color))),
    );
    if (hasErrors(run.manifests.findings) || !run.outcome) return { exitCode: EXIT.findings };
    const outcome = { ...run.outcome, snapshot: view.snapshot };
    const graph = outcome.project.runtime.dependencyGraph();
    const graphView = buildGraphView(graph, {
      ...filterOption(outcome, graph, flags, depth),
      resources: view.snapshot.resources,
    });
    io.stdout.write(renderGraph(graphView, format));
    return { exitCode: EXIT.ok };
  }
  if (flags.resources) {
    const { exitCode } = await runAndReport(
      flags,
      io,
      paths,
      (outcome) => {
        const graph = outcome.project.runtime.dependencyGraph();
        const view = buildGraphView(graph, {
          ...filterOption(outcome, graph, flags, depth),
          resources: outcome.snapshot.resources,
          ...(outcome.project.record ? { record: outcome.project.record } : {}),
        });
        io.stdout.write(renderGraph(view, format));
        return undefined;
      },
      // The lineage of the instances is what the run really read and wrote.
      { record: true },
    );
    return { exitCode };
  }
  const run = await runProject({
    ...(await toRunOptions(flags, io, { manifestsOptional: true, paths })),
    converge: false,
  });
  io.stderr.write(renderFindings(run.manifests.findings, createColors(useColor(io, flags.color))));
  if (hasErrors(run.manifests.findings) || !run.outcome) return { exitCode: EXIT.findings };
  const graph = run.outcome.project.runtime.dependencyGraph();
  if (graph.controllers.length === 0 && !flags.quiet) {
    io.stderr.write('cosi: no controllers registered: the graph is empty\n');
  }
  io.stdout.write(
    renderGraph(buildGraphView(graph, filterOption(run.outcome, graph, flags, depth)), format),
  );
  return { exitCode: EXIT.ok };
}

function parseDepth(flags: GraphFlags): number {
  if (flags.depth === undefined) return 1;
  if (!flags.controller && !flags.type) {
    throw new CliError('--depth: give --controller or --type to say around what');
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

/** Any alias of a defined type; the exact name (any case) of a type that has no definition. */
function resolveType(run: RunOutcome, graph: DependencyGraph, name: string): string {
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
    throw new CliError(`--type: ${typeErrorMessage(error, run.project.registry, others)}`);
  }
}
