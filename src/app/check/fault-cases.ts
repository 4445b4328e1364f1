import type { ManifestResource } from '../../loaders/manifest-resource.js';
import { manifestPlaces, placeOfPointer, type ManifestPlaces } from '../manifest-places.js';
import type { WorkerFault } from '../worker-fault.js';
import { setupFailed, type CheckCase, type CheckResult } from './check-result.js';

/**
 * A fault that stopped a check's worker before, for the check run again after it (see
 * `supervised-cli.ts`): the world it stopped in (`--each`'s path; none: the one world), and
 * what stopped it. That world is checked again without running its controllers, so that its
 * manifests' cases are kept beside the fault's; with `--each` the other worlds run as before.
 */
export interface KnownFault {
  readonly world?: string;
  readonly fault: WorkerFault;
}

/**
 * The check cases of a worker that was stopped: the controller's case and the convergence's, at
 * the manifest of the resource the controller was on, else at the config (as a check's other
 * controller findings are); a fault of the config's code, or cosi's own, a `setup` case.
 */
export function faultCases(fault: WorkerFault, places: ManifestPlaces | undefined): CheckResult {
  const at = (places &&
    fault.pointer &&
    fault.kind !== 'config' &&
    fault.kind !== 'internal' &&
    placeOfPointer(places, fault.pointer)) || { file: fault.file ?? '', line: 0, col: 0 };
  const finding = (
    code: 'controller-failed' | 'not-converged' | 'config-error' | 'internal-error',
    message: string,
  ) => ({ code, message, severity: 'error', ...at, pointer: '' }) as const;
  if (fault.kind === 'config') return setupFailed([finding('config-error', fault.message)]);
  if (fault.kind === 'internal') return setupFailed([finding('internal-error', fault.message)]);
  const cases: CheckCase[] = [
    {
      check: 'controllers',
      name: fault.controller ?? '',
      findings: [finding('controller-failed', fault.message)],
    },
  ];
  if (fault.kind === 'stuck') {
    cases.push({
      check: 'convergence',
      name: 'convergence',
      findings: [
        finding('not-converged', `the controllers did not converge (max-time): ${fault.message}`),
      ],
    });
  }
  return { cases, strict: false };
}

/**
 * A world's check, run again without its controllers after `fault` stopped them (see
 * {@link KnownFault}), with the fault's cases.
 */
export function withFaultCases(
  result: CheckResult,
  fault: WorkerFault,
  run: { readonly manifests: { readonly resources: readonly ManifestResource[] } },
): CheckResult {
  const places = manifestPlaces(run.manifests.resources);
  return { ...result, cases: [...result.cases, ...faultCases(fault, places).cases] };
}

/** Whether a check stopped by `fault` is worth checking again with it known: see {@link KnownFault}. */
export function mayCheckAgain(
  known: readonly KnownFault[],
  fault: WorkerFault,
  world: string | undefined,
  each: boolean,
): boolean {
  if (fault.kind === 'internal') return false;
  // The one world: again only when its config loaded (a controller's fault), and once.
  if (!each) return known.length === 0 && (fault.kind === 'stuck' || fault.kind === 'failed');
  // A world once: run again, it is not entered.
  return world !== undefined && !known.some((k) => k.world === world);
}
