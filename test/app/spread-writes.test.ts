/**
 * A run that hits its write bound names what kept changing; when its writes went to ever new
 * resources (none written more than twice), it names the controllers that wrote them instead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTransformController,
  defineResource,
  type ConvergenceReport,
} from '../../src/index.js';
import { describeSpreadWrites } from '../../src/app/spread-writes.js';
import { runFindings } from '../../src/app/run-findings.js';
import { convergenceProblem } from '../../src/testing/assertions.js';
import { createHarness, type Harness } from '../support/harness.js';

const X = defineResource<{ v: number }>({
  type: 'Xs.test.cosi.dev',
  defaultSpec: () => ({ v: 0 }),
});
const Y = defineResource<{ v: number }>({
  type: 'Ys.test.cosi.dev',
  defaultSpec: () => ({ v: 0 }),
});

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** X `a` makes Y `a`, which makes X `ax`, which makes Y `ax`, ... for ever. */
async function runawayChain(maxWrites: number): Promise<ConvergenceReport> {
  h = createHarness();
  await h.runtime.register(
    createTransformController({
      name: 'XtoY',
      input: X,
      output: Y,
      mapMetadata: (x) => Y.create(x.metadata.id),
      transform: (_ctx, x, y) => {
        y.spec.v = x.spec.v + 1;
      },
    }),
    createTransformController({
      name: 'YtoX',
      input: Y,
      output: X,
      mapMetadata: (y) => X.create(`${y.metadata.id}x`),
      transform: (_ctx, y, x) => {
        x.spec.v = y.spec.v + 1;
      },
    }),
  );
  await h.state.create(X.create('a'));
  return h.runtime.converge({ maxWrites });
}

describe('a run that hit its write bound on ever new resources', () => {
  it('names the controllers that wrote them, most first, where nothing kept changing', async () => {
    const report = await runawayChain(300);
    expect(report.reason).toBe('max-writes');
    expect(report.oscillating).toEqual([]);
    const spread = describeSpreadWrites(report);
    expect(spread).toMatch(
      /^no resource was written more than twice over the last 30\d writes: they went to ever new resources \(controllers that keep creating them, or more work than the write bound allows\), written by (XtoY|YtoX) \(\d+ writes\), (YtoX|XtoY) \(\d+ writes\)$/,
    );
  });

  it('says so in the not-converged finding cosi check reports, and in expectConverged', async () => {
    const report = await runawayChain(300);
    const { convergence } = runFindings(report, {
      placeOf: () => undefined,
      config: 'cosi.config.ts',
    });
    expect(convergence.map((f) => f.code)).toEqual(['not-converged']);
    expect(convergence[0]?.message).toContain('went to ever new resources');
    expect(convergence[0]?.message).toMatch(/written by (XtoY|YtoX) \(\d+ writes\), (YtoX|XtoY)/);
    expect(convergenceProblem(report)).toContain('went to ever new resources');
  });

  it('says nothing for a run that converged', async () => {
    h = createHarness();
    await h.state.create(X.create('a'));
    expect(describeSpreadWrites(await h.runtime.converge())).toBeUndefined();
  });
});
