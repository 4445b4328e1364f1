/**
 * `converge: false`: a scenario that starts on its manifests as loaded, as `createTestProject`
 * starts, so `advance` steps see a polling controller's visits one by one; started converged, a
 * controller that writes at each requeue has run to the time bound before the first step.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScenarioFiles } from '../../src/testing/scenario/run-scenario-files.js';

const REPO = path.resolve(import.meta.dirname, '../..');
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-scenario-start-'));
  // A poller: each visit counts, and comes back 10 s later.
  await writeFile(
    path.join(dir, 'cosi.config.mjs'),
    `import { defineResource, requeueAfter } from ${JSON.stringify(path.join(REPO, 'src/index.ts'))};
const Source = defineResource({ type: 'Sources.test.cosi.dev', defaultSpec: () => ({}) });
const Poll = defineResource({ type: 'Polls.test.cosi.dev', defaultSpec: () => ({ count: 0 }) });
export default {
  definitions: [Source, Poll],
  controllers: [{
    name: 'Poller',
    settings: {
      inputs: [{ namespace: 'default', type: Source.type, kind: 'primary' }],
      outputs: [{ type: Poll.type, kind: 'exclusive' }],
    },
    async reconcile(rt, pointer) {
      if (!(await rt.find(pointer))) return;
      await rt.modify(Poll.create(pointer.id), (poll) => { poll.spec.count += 1; });
      throw requeueAfter(10_000);
    },
    mapInput: async () => [],
  }],
};
`,
  );
  await writeFile(
    path.join(dir, 'sources.yaml'),
    `metadata: { type: Sources.test.cosi.dev, id: s1 }
spec: {}
`,
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const scenario = (start: string) => `name: polls
manifests: [sources.yaml]
${start}steps:
  - expect-absent: { type: Polls.test.cosi.dev, id: s1 }
  - advance: 0s
  - expect: { metadata: { type: Polls.test.cosi.dev, id: s1 }, spec: { count: 1 } }
  - advance: 25s
  - expect: { metadata: { type: Polls.test.cosi.dev, id: s1 }, spec: { count: 3 } }
`;

describe('a scenario with converge: false', () => {
  it('starts with nothing run: advance steps count the visits of a poller', async () => {
    await writeFile(path.join(dir, 'poll.cosi-test.yaml'), scenario('converge: false\n'));
    const run = await runScenarioFiles([], { cwd: dir });
    expect(run.result.cases.flatMap((c) => c.findings)).toEqual([]);
    expect(run.result.cases).toHaveLength(5);
  }, 30_000);

  it('started converged (the default), the poller has run to the time bound first', async () => {
    await writeFile(path.join(dir, 'poll.cosi-test.yaml'), scenario(''));
    const run = await runScenarioFiles([], { cwd: dir });
    const findings = run.result.cases.flatMap((c) => c.findings);
    expect(findings[0]?.message).toContain(
      'expected Polls.test.cosi.dev(default/s1) not to exist, but it does',
    );
  }, 30_000);

  it('takes only true or false', async () => {
    await writeFile(path.join(dir, 'poll.cosi-test.yaml'), scenario('converge: later\n'));
    const run = await runScenarioFiles([], { cwd: dir });
    const findings = run.result.cases.flatMap((c) => c.findings);
    expect(findings).toMatchObject([
      { code: 'invalid-scenario', message: '`converge` is true or false', line: 3, col: 11 },
    ]);
  }, 30_000);
});
