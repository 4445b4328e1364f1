import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/app/project-config.js';
import { ProjectSession } from '../../src/app/project-session.js';
import { readProjectManifests } from '../../src/app/read-project-manifests.js';
import type { ConvergenceReport } from '../../src/engine/runtime/convergence.js';

/**
 * kro's custom status conditions (v0.9.x), as its own integration suite runs them
 * (test/integration/suites/core/instance_custom_conditions_test.go, Apache-2.0): the RGDs and
 * instances of its cases, and what it expects of the instance's status.
 */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** An RGD of kind App with `spec`, the `conditions` entries and a ConfigMap (its `readyWhen`). */
const rgd = (
  spec: string,
  conditions: readonly string[],
  readyWhen = '',
): string => `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: app.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec: ${spec}
    status:
      conditions:
${conditions.map((c) => `        - ${JSON.stringify(`\${${c}}`)}\n`).join('')}  resources:
    - id: configmap
${readyWhen === '' ? '' : `      readyWhen: [${JSON.stringify(`\${${readyWhen}}`)}]\n`}      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}' }
        data: { phase: x }
`;

const instance = (spec: string): string =>
  `apiVersion: kro.run/v1alpha1\nkind: App\nmetadata: { name: demo }\nspec: ${spec}\n`;

interface Opened {
  readonly session: ProjectSession;
  /** The first run's report. */
  readonly report: ConvergenceReport;
  /** The instance's status once the run converged. */
  readonly status: () => Promise<{ state?: string; conditions?: Record<string, unknown>[] }>;
  /** Writes the instance anew and converges. */
  readonly edit: (spec: string) => Promise<void>;
}

async function open(rgdText: string, spec: string): Promise<Opened> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kro-conditions-'));
  dirs.push(dir);
  await writeFile(path.join(dir, 'rgd.yaml'), rgdText);
  await writeFile(path.join(dir, 'demo.yaml'), instance(spec));
  const options = { cwd: dir, files: [dir], stable: true };
  const read = () => loadProjectConfig(options).then((c) => readProjectManifests(options, c));
  const manifests = await read();
  expect(manifests.findings.filter((f) => f.severity === 'error')).toEqual([]);
  const session = await ProjectSession.open(await loadProjectConfig(options), manifests, options);
  const report = await session.converge();
  return {
    session,
    report,
    status: async () => {
      const found = await session.project.state.get<{ status?: Record<string, never> }>({
        namespace: 'default',
        type: 'Apps.kro.run',
        id: 'demo',
      });
      return found.spec.status ?? {};
    },
    edit: async (next) => {
      await writeFile(path.join(dir, 'demo.yaml'), instance(next));
      await session.applyEdit(await read());
      await session.converge();
    },
  };
}

const byType = (conditions: readonly Record<string, unknown>[] | undefined) =>
  new Map((conditions ?? []).map((c) => [c.type, c]));

describe("kro's custom status conditions on an instance", () => {
  it("writes the author's conditions, stamped, and none of kro's four", async () => {
    const { session, status } = await open(
      rgd('{ name: string }', [
        "runtime.newCondition({type: 'PrimaryReady', status: 'True', reason: 'OK', message: 'always healthy in this test'})",
        "runtime.newCondition({type: 'AppReady', status: 'False', reason: 'Init', message: ''})",
      ]),
      '{ name: demo }',
    );
    try {
      const { state, conditions } = await status();
      expect(state).toBe('ACTIVE');
      expect(conditions).toEqual([
        {
          type: 'PrimaryReady',
          status: 'True',
          reason: 'OK',
          message: 'always healthy in this test',
          lastTransitionTime: '2025-01-01T00:00:00Z',
          observedGeneration: 1,
        },
        {
          type: 'AppReady',
          status: 'False',
          reason: 'Init',
          lastTransitionTime: '2025-01-01T00:00:00Z',
          observedGeneration: 1,
        },
      ]);
    } finally {
      await session.close();
    }
  });

  it('follows schema.spec, observedGeneration tracking the generation', async () => {
    const { session, status, edit } = await open(
      rgd('{ name: string, healthy: boolean | default=true }', [
        "runtime.newCondition({type: 'AppReady', status: schema.spec.healthy ? 'True' : 'False', reason: 'CheckedSpec', message: ''})",
      ]),
      '{ name: demo, healthy: true }',
    );
    try {
      expect(byType((await status()).conditions).get('AppReady')).toMatchObject({
        status: 'True',
        observedGeneration: 1,
      });
      await edit('{ name: demo, healthy: false }');
      expect(byType((await status()).conditions).get('AppReady')).toMatchObject({
        status: 'False',
        reason: 'CheckedSpec',
        observedGeneration: 2,
      });
    } finally {
      await session.close();
    }
  });

  it("honors an author's Ready, and runtime.condition reads kro's value, not the author's", async () => {
    const { session, status } = await open(
      rgd(
        '{ name: string }',
        [
          "runtime.newCondition({type: 'ResourcesReady', status: 'True', reason: 'AuthorOverride', message: 'author claims ready'})",
          "runtime.newCondition({type: 'DerivedReady', status: runtime.condition(schema, 'ResourcesReady').status, reason: 'MirrorsKroInternal', message: ''})",
          "runtime.newCondition({type: 'Ready', status: 'False', reason: 'AuthorSaysNo', message: 'this is a test'})",
        ],
        'configmap.data["ready"] == "true"',
      ),
      '{ name: demo }',
    );
    try {
      const { state, conditions } = await status();
      // kro's own lifecycle: the readyWhen never passes.
      expect(state).toBe('IN_PROGRESS');
      const types = byType(conditions);
      expect([...types.keys()]).toEqual(['ResourcesReady', 'DerivedReady', 'Ready']);
      expect(types.get('ResourcesReady')).toMatchObject({
        status: 'True',
        reason: 'AuthorOverride',
      });
      expect(types.get('DerivedReady')).toMatchObject({ status: 'False' });
      expect(types.get('Ready')).toMatchObject({ status: 'False', reason: 'AuthorSaysNo' });
    } finally {
      await session.close();
    }
  });

  it('drops both copies of a computed duplicate type, keeps the survivor, state ERROR', async () => {
    const { session, status } = await open(
      rgd('{ name: string }', [
        "runtime.newCondition({type: 'Survivor', status: 'True', reason: '', message: ''})",
        "runtime.newCondition({type: 'Same-' + schema.spec.name, status: 'True', reason: '', message: ''})",
        "runtime.newCondition({type: 'Same-' + schema.spec.name, status: 'False', reason: '', message: ''})",
      ]),
      '{ name: demo }',
    );
    try {
      const { state, conditions } = await status();
      expect(state).toBe('ERROR');
      expect([...byType(conditions).keys()]).toEqual(['Survivor']);
    } finally {
      await session.close();
    }
  });

  it('keeps a condition at its last value while its data is pending', async () => {
    const { session, status, edit } = await open(
      rgd('{ name: string, key: string }', [
        "runtime.newCondition({type: 'Static', status: 'True', reason: '', message: ''})",
        "runtime.newCondition({type: 'DataDriven', status: configmap.data[schema.spec.key] == 'x' ? 'True' : 'False', reason: 'FromConfigMap', message: ''})",
      ]),
      '{ name: demo, key: phase }',
    );
    try {
      expect(byType((await status()).conditions).get('DataDriven')).toMatchObject({
        status: 'True',
        observedGeneration: 1,
      });
      await edit('{ name: demo, key: missing }');
      const { state, conditions } = await status();
      expect(state).toBe('ACTIVE');
      const types = byType(conditions);
      expect([...types.keys()]).toEqual(['Static', 'DataDriven']);
      expect(types.get('Static')).toMatchObject({ observedGeneration: 2 });
      // Not evaluated again: as last written.
      expect(types.get('DataDriven')).toMatchObject({ status: 'True', observedGeneration: 1 });
    } finally {
      await session.close();
    }
  });

  it("flattens a list of conditions over a forEach resource (kro's docs)", async () => {
    const text = rgd('{ name: string }', []).replace(
      / {4}status:\n {6}conditions:\n {2}resources:[^]*$/,
      `    status:
      conditions:
        - "\${cms.map(s, runtime.newCondition({type: 'Cm-' + s.metadata.name + '-Ready', status: s.data.ok == 'yes' ? 'True' : 'False', reason: 'Data', message: ''}))}"
  resources:
    - id: cms
      forEach:
        - zone: \${['a', 'b']}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}-\${zone}' }
        data: { ok: 'yes' }
`,
    );
    const { session, status } = await open(text, '{ name: demo }');
    try {
      expect((await status()).conditions?.map((c) => [c.type, c.status])).toEqual([
        ['Cm-demo-a-Ready', 'True'],
        ['Cm-demo-b-Ready', 'True'],
      ]);
    } finally {
      await session.close();
    }
  });

  it('does not retry an instance whose conditions were dropped: kro sets state=Error and succeeds', async () => {
    const { session, report, status } = await open(
      rgd('{ name: string }', [
        "runtime.newCondition({type: 'Survivor', status: 'True', reason: '', message: ''})",
        "runtime.newCondition({type: 'Bad', status: schema.spec.name == 'demo' ? 'Yes' : 'True', reason: '', message: ''})",
      ]),
      '{ name: demo }',
    );
    try {
      expect((await status()).state).toBe('ERROR');
      const failing = report.controllers.flatMap((c) => c.failingItems);
      expect(failing.map((f) => f.pointer.id)).toEqual(['demo']);
      expect(failing[0]?.error.message).toMatch(/status must be one of True, False, Unknown/);
      // Reconciled on its events only (its creation, its own status write), never on a backoff:
      // no simulated time went by waiting to retry it.
      expect(failing[0]?.attempts).toBeLessThanOrEqual(2);
      expect(report.elapsed).toBe(0);
    } finally {
      await session.close();
    }
  });

  it("drops a map of a condition's keys that the runtime library did not make (kro: 'got map')", async () => {
    // `object` is dyn to kro's checker too: accepted when the RGD loads, refused when rendered.
    const { session, report, status } = await open(
      rgd('{ name: string, extra: object }', [
        "runtime.newCondition({type: 'Survivor', status: 'True', reason: '', message: ''})",
        'schema.spec.extra',
      ]),
      "{ name: demo, extra: { type: Smuggled, status: 'True', reason: '', message: '' } }",
    );
    try {
      const { state, conditions } = await status();
      expect(state).toBe('ERROR');
      expect([...byType(conditions).keys()]).toEqual(['Survivor']);
      expect(report.controllers.flatMap((c) => c.failingItems)[0]?.error.message).toContain(
        'must return runtime.newCondition(...) or a list of them, got a map',
      );
    } finally {
      await session.close();
    }
  });

  it('still prunes what the instance no longer renders when its conditions are dropped', async () => {
    const text = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: app.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec: { name: string, extra: boolean }
    status:
      conditions:
        - "\${runtime.newCondition({type: 'Same-' + schema.spec.name, status: 'True'})}"
        - "\${runtime.newCondition({type: 'Same-' + schema.spec.name, status: 'False'})}"
  resources:
    - id: extra
      includeWhen: ['\${schema.spec.extra}']
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}-extra' }
`;
    const { session, status, edit } = await open(text, '{ name: demo, extra: true }');
    const configMaps = async () =>
      (await session.project.state.list({ namespace: 'default', type: 'ConfigMaps.core' })).map(
        (r) => r.metadata.id,
      );
    try {
      expect(await configMaps()).toEqual(['demo-extra']);
      await edit('{ name: demo, extra: false }');
      // kro evaluates the conditions after it applied the graph: what it left out is pruned.
      expect(await configMaps()).toEqual([]);
      expect((await status()).state).toBe('ERROR');
    } finally {
      await session.close();
    }
  });
});
