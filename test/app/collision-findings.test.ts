import { describe, expect, it } from 'vitest';
import { collisionFindings } from '../../src/app/run-project.js';
import { pointerKey } from '../../src/engine/resource/pointer.js';
import type { ControllerReport, ConvergenceReport } from '../../src/engine/runtime/convergence.js';
import type { ErrorRecord } from '../../src/engine/runtime/error-record.js';

const status = { namespace: 'default', type: 'HostStatuses.example.org', id: 'node-a' };
const source = { file: 'collide.yaml', line: 4, col: 1, document: 1 };

function reportOf(error: ErrorRecord): ConvergenceReport {
  const controller = {
    name: 'HostStatusController',
    kind: 'qcontroller',
    condition: 'failed',
    reconciles: 3,
    writes: 0,
    errors: 3,
    restarts: 0,
    lastError: error,
    failingItems: [{ pointer: status, attempts: 3, error }],
    waitingItems: [],
    metrics: {},
  } as unknown as ControllerReport;
  return {
    converged: false,
    reason: 'failing',
    rounds: 1,
    elapsed: 0,
    reconciles: 3,
    writes: 0,
    errors: 3,
    controllers: [controller],
    oscillating: [],
  };
}

const graph = { controllers: [], types: [], edges: [] };

describe('collisionFindings', () => {
  it("finds a manifest that a controller's write was refused on from the error's code, not its wording", () => {
    const refused: ErrorRecord = {
      code: 'conflict',
      reason: 'owner',
      pointer: status,
      message: 'a message that says nothing of owners',
    };
    const findings = collisionFindings(
      new Map([[pointerKey(status), source]]),
      graph,
      reportOf(refused),
    );
    expect(findings).toMatchObject([
      { code: 'output-collision', file: 'collide.yaml', line: 4, col: 1 },
    ]);
    expect(findings[0]?.message).toContain('controller "HostStatusController"');
  });

  it('finds nothing in an error that only words an owner conflict', () => {
    const worded: ErrorRecord = {
      code: 'error',
      message: `resource HostStatuses.example.org(default/node-a) is owned by "", not "HostStatusController"`,
    };
    const findings = collisionFindings(
      new Map([[pointerKey(status), source]]),
      graph,
      reportOf(worded),
    );
    expect(findings).toEqual([]);
  });
});
