import { mergeReports, type ConvergenceReport } from '../engine/runtime/convergence.js';
import type { Project } from './project.js';

/** Bounds of a convergence run. */
export interface ConvergeBounds {
  /** Virtual-time bound, ms; the runtime's default (1 h) when omitted. */
  readonly timeout?: number;
  /** Write bound; {@link defaultMaxWrites} of the manifests when omitted. */
  readonly maxWrites?: number;
  /**
   * Wall ms to wait on a controller that nothing in the run moves (a promise that never
   * settles) before the run stops and names it; the runtime's default (60 s) when omitted.
   */
  readonly maxStall?: number;
}

/** Enough for every resource to be rewritten many times, but a ping-pong still stops quickly. */
export function defaultMaxWrites(resources: number): number {
  return Math.max(10_000, resources * 50);
}

/**
 * Runs the project's controllers until nothing is left to do or a bound is hit. Manifest
 * resources that an apply removed are destroyed once the controllers have released them, and
 * RGD controllers read the namespaces their instances appeared in (`instance-namespaces.ts`);
 * the controllers converge again on that; the report covers the whole.
 */
export async function convergeProject(
  project: Project,
  bounds: ConvergeBounds = {},
): Promise<ConvergenceReport> {
  const options = {
    ...(bounds.timeout !== undefined ? { maxTime: bounds.timeout } : {}),
    ...(bounds.maxStall !== undefined ? { maxStall: bounds.maxStall } : {}),
    maxWrites: bounds.maxWrites ?? defaultMaxWrites(project.applier.size),
  };
  let report = await project.runtime.converge(options);
  while (
    report.converged &&
    ((await project.applier.destroyReleased()) || (await project.followNamespaces()))
  ) {
    report = mergeReports(report, await project.runtime.converge(options));
  }
  return report;
}
