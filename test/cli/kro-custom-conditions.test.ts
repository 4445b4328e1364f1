import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const FIXTURE = 'fixtures/kro-custom-conditions';

describe("kro's custom status conditions from the command line", () => {
  it("apply writes the author's conditions, composed with kro's ResourcesReady", async () => {
    const r = await cli(['apply', '-f', FIXTURE, '-o', 'json', '--stable', '-t', 'observedapp']);
    expect(r.code).toBe(0);
    const { items } = JSON.parse(r.stdout) as { items: { status: unknown }[] };
    expect(items[0]?.status).toEqual({
      state: 'ACTIVE',
      conditions: [
        {
          type: 'AppReady',
          status: 'True',
          reason: 'ReplicaCount',
          lastTransitionTime: '2025-01-01T00:00:00Z',
          observedGeneration: 1,
        },
        {
          type: 'Ready',
          status: 'True',
          reason: 'AllHealthy',
          lastTransitionTime: '2025-01-01T00:00:00Z',
          observedGeneration: 1,
        },
      ],
    });
  });

  it('explain names the conditions entries the instance conditions came from', async () => {
    const r = await cli([
      'explain',
      'observedapp',
      'shop',
      '-f',
      FIXTURE,
      '--field',
      'status.conditions',
      '-q',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `template ${FIXTURE}/rgd.yaml:16:12 \${runtime.newCondition({type: 'AppReady'`,
    );
    expect(r.stdout).toContain("${runtime.newCondition({type: 'Ready'");
  });
});
