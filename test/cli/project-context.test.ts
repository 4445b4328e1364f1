import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exitWithin, runCosi, spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { saveFile } from '../support/save-file.js';
import { waitFor } from '../support/wait-for.js';

/**
 * "The project is the context": in a project whose `cosi.config.ts` names its manifests, ignore
 * patterns, definition files and Kubernetes version, every command that reads manifests runs
 * with no `-f`, as the built CLI (dist/) in a real process. The project is `cosi init`'s, with
 * three things only the config's other settings make valid: a draft that does not validate
 * (ignored), a Widget whose CRD is outside the manifests (a definition file), and a FlowSchema
 * of an API that Kubernetes removed in 1.32 (the project is on 1.31). Every wait is for a
 * condition, bounded.
 */

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.org
spec:
  group: example.org
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer, minimum: 1 }
`;
const WIDGET = `apiVersion: example.org/v1
kind: Widget
metadata: { name: w1, namespace: default }
spec: { size: 3 }
`;
const FLOW_SCHEMA = `apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata: { name: health }
spec:
  priorityLevelConfiguration: { name: exempt }
  matchingPrecedence: 100
`;
const DRAFT = `metadata: { type: app, id: draft }\nspec: { image: '', replicas: many }\n`;

let base: string;
let dir: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'cosi-project-context-'));
  const init = await runCosi(['init', 'project'], base);
  expect(init.code).toBe(0);
  const project = path.join(base, 'project');
  await mkdir(path.join(project, '.git'));
  const configFile = path.join(project, 'cosi.config.ts');
  const config = await readFile(configFile, 'utf8');
  expect(config).toContain("manifests: ['manifests'],");
  await writeFile(
    configFile,
    config.replace(
      "manifests: ['manifests'],",
      "manifests: ['manifests'],\n  ignore: ['drafts/'],\n  definitionFiles: ['crds'],\n  kubernetesVersion: '1.31',",
    ),
  );
  await mkdir(path.join(project, 'crds'));
  await writeFile(path.join(project, 'crds/widget.yaml'), CRD);
  await writeFile(path.join(project, 'manifests/widget.yaml'), WIDGET);
  await writeFile(path.join(project, 'manifests/flowschema.yaml'), FLOW_SCHEMA);
  await mkdir(path.join(project, 'manifests/drafts'));
  await writeFile(path.join(project, 'manifests/drafts/bad.yaml'), DRAFT);
}, 60_000);
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const processes: CosiProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-project-context-run-'));
  await cp(path.join(base, 'project'), dir, { recursive: true });
});
afterEach(async () => {
  for (const p of processes.splice(0)) {
    p.kill('SIGKILL');
    await p.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

const start = (args: readonly string[]): CosiProcess => {
  const p = spawnCosi(args, dir, { stdout: true });
  processes.push(p);
  return p;
};

/** Changes the `api` app's replicas in manifests/apps.yaml. */
async function editReplicas(replicas: number): Promise<void> {
  const file = path.join(dir, 'manifests/apps.yaml');
  const text = await readFile(file, 'utf8');
  const pattern = /(id: api[\s\S]*?replicas:) \d+/;
  expect(text).toMatch(pattern);
  await saveFile(file, text.replace(pattern, `$1 ${replicas}`));
}

/**
 * Saves the edit once and waits (bounded) until `seen`: watch, get -w and run --watch each hear a
 * save made as soon as they printed their first round, listing or convergence.
 */
async function editOnce(replicas: number, seen: () => boolean, timeoutMs = 30_000) {
  await editReplicas(replicas);
  await waitFor(seen, timeoutMs, `the edit (replicas: ${String(replicas)}) to be seen`);
}

describe(
  'a project whose config names its manifests and how to read them',
  { timeout: 120_000 },
  () => {
    it('check reads them, skips the ignored draft, and checks the Widget and the FlowSchema as the config says', async () => {
      const check = await runCosi(['check'], dir);
      expect(check.stdout).toContain('manifests: 4 resources in 3 files: 4 valid, 0 invalid');
      expect(check.stdout + check.stderr).not.toContain('error[');
      expect(check.code).toBe(0);
      // The flag overrides the config's version, and the FlowSchema is then refused.
      const unset = await runCosi(['check', '--kubernetes-version', '1.36'], dir);
      expect(unset.stderr + unset.stdout).toContain('was removed in Kubernetes 1.32');
      expect(unset.code).toBe(1);
    });

    it('apply, get, graph --resources and explain read them', async () => {
      const apply = await runCosi(['apply', '-o', 'name'], dir);
      expect(apply.stdout.split('\n').filter(Boolean)).toEqual([
        'appconfigs.example.org/api',
        'appconfigs.example.org/web',
        'apps.example.org/api',
        'apps.example.org/web',
        'flowschema.flowcontrol.apiserver.k8s.io/health',
        'widget.example.org/w1',
      ]);
      expect(apply.code).toBe(0);
      const get = await runCosi(['get', 'widget', '--no-headers'], dir);
      expect(get.stdout).toMatch(/^default\s+Widget\s+w1\s+1\s/);
      expect(get.code).toBe(0);
      const graph = await runCosi(['graph', '--resources', '-o', 'json'], dir);
      expect(graph.stdout).toContain('"w1"');
      expect(graph.stdout).not.toContain('"draft"');
      expect(graph.code).toBe(0);
      const explain = await runCosi(['explain', 'appconfig', 'api', '-q'], dir);
      expect(explain.stdout).toContain(
        'Apps.example.org(default/api)@1  <- manifest manifests/apps.yaml',
      );
      expect(explain.code).toBe(0);
      // A field of a type whose CRD only the config's definition files hold.
      const field = await runCosi(['explain', 'widget.spec.size'], dir);
      expect(field.stdout).toContain('FIELD: size <integer>');
      expect(field.code).toBe(0);
    });

    it('watch reads and watches them: an edit is the next round', async () => {
      const p = start(['watch', '--plain']);
      await p.waitForStdout((out) => /^round 1: started \| converged \|/m.test(out), 60_000);
      expect(p.stdout()).toMatch(/\| 3 files \|/);
      await editOnce(5, () => /^round 2: /m.test(p.stdout()));
      expect(p.stdout()).toMatch(/^round 2: manifests\/apps\.yaml changed \| converged \|/m);
      p.kill('SIGTERM');
      expect(await exitWithin(p, 20_000)).toBe(0);
    });

    it('get -w reads and watches them: an edit prints the changed row', async () => {
      const p = start(['get', 'app', '-w', '--no-headers']);
      const rows = (): string[] =>
        p
          .stdout()
          .split('\n')
          .filter((line) => /\sapi\s/.test(line));
      await p.waitForStdout(() => rows().length === 1, 60_000);
      await editOnce(7, () => rows().length === 2);
      expect(rows()[1]).toMatch(/^default\s+App\s+api\s+2\s.*\s7$/);
      expect(p.stderr()).not.toContain('error[');
      p.kill('SIGTERM');
      expect(await exitWithin(p, 20_000)).toBe(0);
    });

    it('test starts a scenario that names no manifests from those the config names, read as it says', async () => {
      await writeFile(
        path.join(dir, 'project.cosi-test.yaml'),
        [
          'name: the project as its config describes it',
          'steps:',
          '  - expect:',
          '      - metadata: { type: AppConfig, id: api }',
          '        spec: { registry: ghcr.io }',
          '      - { apiVersion: example.org/v1, kind: Widget, metadata: { name: w1, namespace: default } }',
          '      - { apiVersion: flowcontrol.apiserver.k8s.io/v1beta3, kind: FlowSchema, metadata: { name: health } }',
          '  - expect-absent: { type: App, id: draft }',
          '',
        ].join('\n'),
      );
      const test = await runCosi(['test'], dir);
      expect(test.stdout).toContain('scenarios: 1 passed, 0 failed (steps: 2 passed, 0 failed)');
      expect(test.code).toBe(0);
    });

    it('run --watch serves them and applies an edit', async () => {
      const p = start(['run', '--watch']);
      await p.waitForLine(/applied 4 resources \(4 created/, 60_000);
      await p.waitForLine(/converged in \d/, 60_000);
      await editOnce(9, () => /applied 4 resources \(0 created, 1 updated/.test(p.stderr()));
      p.kill('SIGTERM');
      expect(await exitWithin(p, 20_000)).toBe(0);
    });
  },
);

describe.skipIf(!etcdAvailable)(
  'diff in the project, against a real etcd',
  { timeout: 120_000 },
  () => {
    let etcd: EtcdServer;
    beforeAll(async () => {
      etcd = await startEtcd();
    }, 60_000);
    afterAll(async () => {
      await etcd.stop();
    });

    it('compares the manifests the config names, read as the config says', async () => {
      const state = `etcd://${etcd.endpoint.replace(/^http:\/\//, '')}/context`;
      const diff = await runCosi(['diff', '--state', state, '-o', 'json'], dir);
      const entries = JSON.parse(diff.stdout) as { type: string; id: string; action: string }[];
      const resources = entries.filter((e) => !e.type.startsWith('ResourceDefinitions'));
      expect(resources.map((e) => `${e.action} ${e.type}/${e.id}`)).toEqual(
        expect.arrayContaining([
          'create Apps.example.org/api',
          'create Apps.example.org/web',
          'create Widgets.example.org/w1',
        ]),
      );
      expect(diff.stdout).not.toContain('draft');
      expect(diff.code).toBe(1);
    });
  },
);

describe('a config that names no manifests', { timeout: 60_000 }, () => {
  it('watch, get -w, diff and run without -f say how to give them, exit 2', async () => {
    const configFile = path.join(dir, 'cosi.config.ts');
    await writeFile(
      configFile,
      (await readFile(configFile, 'utf8')).replace("manifests: ['manifests'],", ''),
    );
    const advice =
      "no manifests given: pass -f <path> (a file or a directory), or name them in cosi.config.ts (manifests: ['manifests/'])";
    for (const args of [
      ['watch', '--plain'],
      ['get', 'app', '-w'],
      ['diff', '--state', 'etcd://127.0.0.1:1'],
      ['run'],
    ]) {
      const run = await runCosi(args, dir);
      expect(run.stderr, args.join(' ')).toContain(advice);
      expect(run.code, args.join(' ')).toBe(2);
    }
  });
});
