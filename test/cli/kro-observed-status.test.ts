/**
 * Observed status (`cosi.dev/observed: "true"`): the status a cluster's controllers would report
 * of what a kro RGD renders, given offline as crossplane render's observed resources are.
 */
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryTree } from '../support/temporary-directory.js';
import { parseAllDocuments } from 'yaml';
import { createTestProject } from '../../src/testing/index.js';
import { cli } from './run-cli.js';

const tree = (files: Record<string, string>): Promise<string> =>
  temporaryTree('cosi-observed-', files);

/** The webapp fixture with kro's example's readyWhen on the Deployment: status no one writes. */
async function webapp(files: Record<string, string> = {}): Promise<string> {
  const rgd = await readFile('fixtures/kro-webapp/rgd.yaml', 'utf8');
  const waiting = rgd.replace(
    '    - id: deployment\n',
    '    - id: deployment\n      readyWhen:\n        - ${deployment.spec.replicas == deployment.status.availableReplicas}\n',
  );
  expect(waiting).not.toBe(rgd);
  return tree({
    'rgd.yaml': waiting,
    'instances.yaml': await readFile('fixtures/kro-webapp/instances.yaml', 'utf8'),
    ...files,
  });
}

const observedShop = (status: string, name = 'shop'): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  annotations:
    cosi.dev/observed: "true"
status:
${status}
`;

interface Doc {
  kind: string;
  metadata: { name: string };
  status?: Record<string, unknown>;
}

function docs(yaml: string): Doc[] {
  return parseAllDocuments(yaml).map((d) => d.toJS() as Doc);
}

describe('observed status of what an RGD renders', () => {
  it('the rgd-waiting hint names it, and following the hint makes the instance ACTIVE', async () => {
    const before = await cli(['apply', '-f', await webapp(), '--stable']);
    const hint = before.stderr.split('\n').find((l) => l.includes('WebApps.kro.run(default/shop)'));
    expect(hint).toContain('[rgd-waiting]');
    expect(hint).toContain('annotated cosi.dev/observed: "true", with its status');
    // Another controller cannot write the status of the RGD's output: the hint no longer says so.
    expect(hint).not.toContain('with a controller in cosi.config.ts');

    const dir = await webapp({ 'observed.yaml': observedShop('  availableReplicas: 1') });
    const r = await cli(['apply', '-f', dir, '--stable', '-o', 'yaml']);
    expect(r.code).toBe(0);
    const all = docs(r.stdout);
    const shop = all.find((d) => d.kind === 'WebApp' && d.metadata.name === 'shop');
    expect(shop?.status).toMatchObject({ state: 'ACTIVE', availableReplicas: 1 });
    const blog = all.find((d) => d.kind === 'WebApp' && d.metadata.name === 'blog');
    expect(blog?.status?.state).toBe('IN_PROGRESS');
    // The Deployment carries it, as the cluster would show it.
    const deployment = all.find((d) => d.kind === 'Deployment' && d.metadata.name === 'shop');
    expect(deployment?.status).toEqual({ availableReplicas: 1 });
    // Only blog still waits.
    const waiting = r.stderr.split('\n').filter((l) => l.includes('[rgd-waiting]'));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toContain('WebApps.kro.run(default/blog)');
    expect(r.stderr).not.toContain('observed-unused');
    // Observed, the shop's dependents render after it; the strict check passes for it alone.
    const strict = await cli(['check', '-f', dir, '--strict']);
    expect(strict.stdout).not.toContain('WebApps.kro.run(default/shop) stays in progress');
  });

  it('a status that is not ready leaves the instance in progress', async () => {
    const dir = await webapp({ 'observed.yaml': observedShop('  availableReplicas: 0') });
    const r = await cli(['get', 'webapp', 'shop', '-f', dir, '-o', 'json']);
    const shop = JSON.parse(r.stdout) as Doc;
    expect(shop.status).toMatchObject({ state: 'IN_PROGRESS', availableReplicas: 0 });
  });

  it('the rgd-waiting hint tells a given status that is not ready, a nested instance, and a waiting item', async () => {
    // Given and not ready: the hint names where, and does not ask to give it (review-new M4).
    const given = await cli([
      'check',
      '-f',
      await webapp({ 'observed.yaml': observedShop('  availableReplicas: 0') }),
    ]);
    const shop = given.stdout.split('\n').find((l) => l.includes('WebApps.kro.run(default/shop)'));
    expect(shop).toContain(
      'it waits on its resources: deployment: readyWhen is false (the status observed of deployment (',
    );
    expect(shop).toMatch(/observed\.yaml:\d+:\d+\) is not one it is ready with/);
    expect(shop).not.toContain('annotated cosi.dev/observed');
    // blog has none: it is still told how to give one.
    const blog = given.stdout.split('\n').find((l) => l.includes('WebApps.kro.run(default/blog)'));
    expect(blog).toContain(
      'give the status a cluster would report of Deployment default/blog as a manifest of that object annotated cosi.dev/observed: "true", with its status',
    );

    // A nested instance's status is its own RGD's: the outer is told to look at it.
    const nested = await tree({
      'rgds.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: app.example }
spec:
  schema: { apiVersion: v1alpha1, kind: App, group: example.org, spec: { name: string } }
  resources:
    - id: deploy
      readyWhen: ['\${deploy.status.?availableReplicas.orValue(0) > 0}']
      template:
        apiVersion: apps/v1
        kind: Deployment
        metadata: { name: '\${schema.spec.name}' }
        spec:
          selector: { matchLabels: { app: x } }
          template:
            metadata: { labels: { app: x } }
            spec: { containers: [{ name: c, image: nginx }] }
---
apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: outer.example }
spec:
  schema: { apiVersion: v1alpha1, kind: Outer, group: example.org, spec: {} }
  resources:
    - id: inner
      readyWhen: ['\${inner.status.state == "ACTIVE"}']
      template:
        apiVersion: example.org/v1alpha1
        kind: App
        metadata: { name: '\${schema.metadata.name}-inner' }
        spec: { name: '\${schema.metadata.name}' }
`,
      'outer.yaml':
        'apiVersion: example.org/v1alpha1\nkind: Outer\nmetadata: { name: o1 }\nspec: {}\n',
    });
    const r = await cli(['check', '-f', nested]);
    const outer = r.stdout.split('\n').find((l) => l.includes('Outers.example.org(default/o1)'));
    expect(outer).toContain(
      'inner: readyWhen is false (inner is Apps.example.org(default/o1-inner), whose status its own RGD writes: see what it waits on)',
    );
    expect(outer).not.toContain('cosi.dev/observed');

    // A forEach item that waits is named, and only it is told to be observed.
    const items = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: multi }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Multi
    spec: { envs: '[]string | default=["a","b"]' }
  resources:
    - id: deps
      forEach: [{ env: '\${schema.spec.envs}' }]
      readyWhen: ['\${each.status.?availableReplicas.orValue(0) > 0}']
      template:
        apiVersion: apps/v1
        kind: Deployment
        metadata: { name: 'web-\${env}' }
        spec:
          selector: { matchLabels: { app: x } }
          template:
            metadata: { labels: { app: x } }
            spec: { containers: [{ name: c, image: nginx }] }
`,
      'multi.yaml': 'apiVersion: kro.run/v1alpha1\nkind: Multi\nmetadata: { name: m }\nspec: {}\n',
      'observed.yaml': observedShop('  availableReplicas: 1', 'web-a'),
    });
    const m = await cli(['check', '-f', items]);
    expect(m.stdout).toContain('deps (web-b): readyWhen ${each.status');
    expect(m.stdout).toContain('report of Deployment default/web-b as a manifest');
    expect(m.stdout).not.toContain('deps (web-a)');
  });

  it("checks the status against its kind's schema, and says every problem at file:line:col", async () => {
    const dir = await webapp({
      'observed.yaml': [
        observedShop('  availableReplicas: "one"\n  readyReplicaz: 1'),
        `apiVersion: apps/v1
kind: Deployment
metadata:
  name: blog
  annotations: { cosi.dev/observed: "yes" }
status: {}
`,
        `apiVersion: v1
kind: Service
metadata:
  name: shop-svc
  annotations: { cosi.dev/observed: "true" }
`,
        `metadata:
  type: WebApps.kro.run
  id: shop
  annotations: { cosi.dev/observed: "true" }
spec: {}
`,
      ].join('---\n'),
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    const errors = r.stdout.split('\n').filter((l) => l.includes('observed.yaml:'));
    expect(errors).toEqual([
      expect.stringMatching(
        /observed\.yaml:8:22: error\[schema-violation\]: must be integer \(at \/status\/availableReplicas\)$/,
      ),
      expect.stringMatching(
        /observed\.yaml:9:3: error\[schema-violation\]: unknown field "readyReplicaz" \(did you mean "readyReplicas"\?\)/,
      ),
      expect.stringMatching(
        /observed\.yaml:15:37: error\[observed-status\]: cosi\.dev\/observed is "true" .* or "false", not "yes"/,
      ),
      expect.stringMatching(
        /observed\.yaml:18:1: error\[observed-status\]: an observed Service gives the status a cluster would report: it has no status$/,
      ),
      expect.stringMatching(
        /observed\.yaml:27:37: error\[observed-status\]: only a Kubernetes object .* can be observed; WebApps\.kro\.run is a cosi type/,
      ),
    ]);
    // None of them is a resource: the Deployment's missing spec is not the observed object's.
    expect(r.stdout).not.toContain('/spec/selector');
  });

  it('checks the status of a CRD kind with the status subresource, which a manifest drops', async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: databases.example.com }
spec:
  group: example.com
  names: { kind: Database, plural: databases, singular: database }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      subresources: { status: {} }
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { size: { type: integer } } }
            status: { type: object, properties: { ready: { type: boolean } } }
`;
    const dir = await tree({
      'crd.yaml': crd,
      'observed.yaml': `apiVersion: example.com/v1
kind: Database
metadata:
  name: db
  annotations: { cosi.dev/observed: "true" }
status:
  ready: "yes"
`,
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.stdout).toMatch(
      /observed\.yaml:7:10: error\[schema-violation\]: Invalid value: "string": status\.ready in body must be of type boolean/,
    );
  });

  it("is stored with its kind's status defaults, as the API server stores a status it admits", async () => {
    // A Gateway's status.addresses[].type defaults to IPAddress: a cluster reports it, so an
    // RGD reading it gets it (review M7: the field was silently left out).
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gates.example.com }
spec:
  group: example.com
  names: { kind: Gate, plural: gates, singular: gate }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      subresources: { status: {} }
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { port: { type: integer } } }
            status:
              type: object
              properties:
                addresses:
                  type: array
                  items:
                    type: object
                    properties:
                      type: { type: string, default: IPAddress }
                      value: { type: string }
`;
    const rgd = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: site }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Site
    spec: { port: integer | default=80 }
    status:
      address: \${gate.status.addresses[0].value}
      addressType: \${gate.status.addresses[0].type}
  resources:
    - id: gate
      template:
        apiVersion: example.com/v1
        kind: Gate
        metadata: { name: '\${schema.metadata.name}' }
        spec: { port: '\${schema.spec.port}' }
`;
    const observed = (address: string): string => `apiVersion: example.com/v1
kind: Gate
metadata: { name: front, annotations: { cosi.dev/observed: "true" } }
status:
  addresses: [{ value: ${address} }]
`;
    const dir = await tree({
      'crd.yaml': crd,
      'rgd.yaml': rgd,
      'site.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Site\nmetadata: { name: front }\nspec: {}\n',
      'observed.yaml': observed('10.0.0.1'),
      'edit.cosi-test.yaml': `name: an edited observed status is defaulted too
manifests: [crd.yaml, rgd.yaml, site.yaml, observed.yaml]
steps:
  - edit:
      type: observed
      id: "Gates.example.com:front"
      patch: { status: { addresses: [{ value: 10.0.0.2 }] } }
  - expect:
      apiVersion: kro.run/v1alpha1
      kind: Site
      metadata: { name: front }
      status: { address: 10.0.0.2, addressType: IPAddress }
`,
    });
    const r = await cli(['get', 'site', '-f', dir, '-o', 'yaml']);
    expect(r.stderr).not.toMatch(/error|warning/);
    expect(r.code).toBe(0);
    const [site] = docs(r.stdout);
    expect(site?.status).toMatchObject({ address: '10.0.0.1', addressType: 'IPAddress' });
    const gate = await cli(['get', 'gate', '-f', dir, '-o', 'yaml']);
    expect(docs(gate.stdout)[0]?.status).toEqual({
      addresses: [{ value: '10.0.0.1', type: 'IPAddress' }],
    });
    const test = await cli(['test', path.join(dir, 'edit.cosi-test.yaml')]);
    expect(test.stdout).toContain('2 passed, 0 failed');
    expect(test.code).toBe(0);
  });

  it('warns of an observed status laid on nothing: a misspelt name, a manifest', async () => {
    const dir = await webapp({
      'observed.yaml': [
        observedShop('  availableReplicas: 1', 'shopp'),
        `apiVersion: v1
kind: Service
metadata:
  name: settings
  annotations: { cosi.dev/observed: "true" }
status: { loadBalancer: {} }
`,
      ].join('---\n'),
      'settings.yaml':
        'apiVersion: v1\nkind: Service\nmetadata: { name: settings }\nspec: { ports: [{ port: 80 }] }\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(0);
    const unused = r.stdout.split('\n').filter((l) => l.includes('[observed-unused]'));
    expect(unused).toEqual([
      expect.stringMatching(
        /observed\.yaml:1:1: warning\[observed-unused\]: the observed status of Deployment default\/shopp is laid on nothing: no RGD rendered a Deployment of that name in default \(did you mean "shop"\?\)$/,
      ),
      expect.stringMatching(
        /observed\.yaml:10:1: warning\[observed-unused\]: the observed status of Service default\/settings is laid on nothing: that Service is a manifest \(write its status in it\)/,
      ),
    ]);
    expect((await cli(['check', '-f', dir, '--strict'])).code).toBe(1);
  });

  it('says the namespace it was rendered in, what an externalRef reads, and refuses a made-up name', async () => {
    const dir = await webapp({
      'observed.yaml': observedShop('  availableReplicas: 1').replace(
        'name: shop\n',
        'name: shop\n  namespace: prod\n',
      ),
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.stdout).toContain(
      'the observed status of Deployment prod/shop is laid on nothing: no RGD rendered a Deployment of that name in prod (it rendered one in default: did you mean metadata.namespace: default?)',
    );

    // A resource an externalRef reads is no RGD's output: it is given as a manifest.
    const external = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: extd }
spec:
  schema: { apiVersion: v1alpha1, kind: ExtD, spec: {} }
  resources:
    - id: db
      externalRef: { apiVersion: apps/v1, kind: Deployment, metadata: { name: db } }
      readyWhen: ['\${db.status.availableReplicas > 0}']
`,
      'e.yaml': 'apiVersion: kro.run/v1alpha1\nkind: ExtD\nmetadata: { name: e }\nspec: {}\n',
      'db-observed.yaml': observedShop('  availableReplicas: 2', 'db'),
    });
    const e = await cli(['check', '-f', external]);
    expect(e.stdout).toContain(
      "db-observed.yaml:1:1: warning[observed-unused]: the observed status of Deployment default/db is laid on nothing: an RGD's externalRef reads that Deployment, which no RGD renders; give it as a manifest, its status included (without cosi.dev/observed)",
    );

    // generateName makes up a name: it observes nothing, and is refused.
    const made = await webapp({
      'observed.yaml': observedShop('  availableReplicas: 1').replace(
        'name: shop',
        'generateName: shop-',
      ),
    });
    const g = await cli(['check', '-f', made]);
    expect(g.stdout).toMatch(
      /observed\.yaml:4:17: error\[observed-status\]: an observed Deployment names the object it observes with metadata\.name; generateName would make up a name no RGD renders/,
    );
    expect(g.code).toBe(1);
  });

  it("explain places each field of one at its line in the object's document", async () => {
    const dir = await webapp({
      'observed.yaml': observedShop('  availableReplicas: 1\n  readyReplicas: 1'),
    });
    const r = await cli(['explain', 'observed/Deployments.apps:shop', '-f', dir]);
    expect(r.code).toBe(0);
    // observed.yaml: apiVersion 1, kind 2, name 4, status 7-9.
    expect(r.stdout).toMatch(/\/metadata\/name +manifest \S*observed\.yaml:4:9/);
    expect(r.stdout).toMatch(/\/status\/availableReplicas +manifest \S*observed\.yaml:8:22/);
    expect(r.stdout).toMatch(/\/status\/readyReplicas +manifest \S*observed\.yaml:9:18/);
    expect(r.stdout).not.toContain('/spec/status');

    // The Deployment's status field came from it (not from the RGD's template), and its lineage
    // holds its own observed status only, not its Service's the same reconcile read (review-new M3).
    const both = await webapp({
      'observed.yaml': [
        observedShop('  availableReplicas: 1\n  readyReplicas: 1'),
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: shop-svc\n  annotations: { cosi.dev/observed: "true" }\nstatus: { loadBalancer: {} }\n',
      ].join('---\n'),
    });
    const field = await cli([
      'explain',
      'deployment/shop',
      '-f',
      both,
      '--field',
      'status.availableReplicas',
    ]);
    expect(field.stdout).toMatch(
      /\/status\/availableReplicas +v1 ResourceGraph\(webapp\.kro\.run\) reconcile #\d+ +observed status \S*observed\.yaml:8:22/,
    );
    const lineage = field.stdout.slice(0, field.stdout.indexOf('history'));
    expect(lineage).toContain('mapped: ObservedStatuses.cosi.dev(default/Deployments.apps:shop)');
    expect(lineage).not.toContain('Services.core:shop-svc');
  });

  it("cosi test's expect-findings has the rgd-waiting and observed-unused warnings cosi check reports", async () => {
    const dir = await webapp({
      'observed.yaml': observedShop('  availableReplicas: 1', 'shopp'),
      'warned.cosi-test.yaml': `manifests: [rgd.yaml, instances.yaml, observed.yaml]
steps:
  - expect-findings:
      - { code: rgd-waiting, message: WebApps.kro.run(default/blog) stays in progress }
      - { code: observed-unused, message: 'Deployment default/shopp is laid on nothing' }
`,
    });
    const checked = await cli(['check', '-f', dir]);
    expect(checked.stdout).toContain('warning[rgd-waiting]');
    expect(checked.stdout).toContain('warning[observed-unused]');
    const tested = await cli(['test', dir]);
    expect(tested.stdout).not.toContain('missing-finding');
    expect(tested.stdout).toContain('1 passed, 0 failed');
    expect(tested.code).toBe(0);
  });

  it("cosi/testing's findings are those cosi check reports: rgd-waiting and observed-unused at their manifests", async () => {
    const dir = await webapp({ 'observed.yaml': observedShop('  availableReplicas: 1', 'shopp') });
    const project = await createTestProject({ manifests: dir, cwd: dir });
    try {
      await project.converge();
      const findings = (await project.findings()).map((f) => [
        f.code,
        path.basename(f.file),
        f.line,
        f.col,
      ]);
      expect(findings).toHaveLength(3);
      expect(findings).toEqual(
        expect.arrayContaining([
          ['rgd-waiting', 'instances.yaml', 1, 1],
          ['rgd-waiting', 'instances.yaml', 11, 1],
          ['observed-unused', 'observed.yaml', 1, 1],
        ]),
      );
      // Once the name is right, the instance it feeds is ready, and neither is said.
      await project.destroy('observed', 'Deployments.apps:shopp');
      await project.apply(observedShop('  availableReplicas: 1'));
      await project.converge();
      const after = (await project.findings()).map((f) => [f.code, f.line]);
      expect(after).toEqual([['rgd-waiting', 11]]);
    } finally {
      await project.close();
    }
  });

  it('the RGD controller reads observed statuses only when there are some, and then draws it', async () => {
    const without = await cli(['graph', '-f', await webapp()]);
    expect(without.stdout).not.toContain('ObservedStatuses.cosi.dev');
    const dir = await webapp({ 'observed.yaml': observedShop('  availableReplicas: 1') });
    const graph = await cli(['graph', '-f', dir]);
    expect(graph.stdout).toMatch(/reads {3}mapped {3}default\/ObservedStatuses\.cosi\.dev/);
    const listed = await cli(['get', 'observed', '-f', dir]);
    expect(listed.stdout).toMatch(
      /default +ObservedStatus +Deployments\.apps:shop .* Deployment +shop/,
    );
  });

  it('a scenario step that applies, edits and removes one moves the instance with it', async () => {
    const dir = await webapp({
      'ready.cosi-test.yaml': `name: the webapp is ready once its Deployment reports its replicas
manifests: [rgd.yaml, instances.yaml]
steps:
  - expect:
      apiVersion: kro.run/v1alpha1
      kind: WebApp
      metadata: { name: shop }
      status: { state: IN_PROGRESS }
  - name: the cluster reports the Deployment available
    apply:
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: shop
        annotations: { cosi.dev/observed: "true" }
      status: { availableReplicas: 1 }
  - expect:
      apiVersion: kro.run/v1alpha1
      kind: WebApp
      metadata: { name: shop }
      status: { state: ACTIVE, availableReplicas: 1 }
  - name: and loses it
    edit: { type: observed, id: "Deployments.apps:shop", spec: { status: { availableReplicas: 0 } } }
  - expect:
      apiVersion: kro.run/v1alpha1
      kind: WebApp
      metadata: { name: shop }
      status: { state: IN_PROGRESS, availableReplicas: 0 }
  - destroy: { type: observed, id: "Deployments.apps:shop" }
  - expect-absent: { type: observed, id: "Deployments.apps:shop" }
  - expect:
      apiVersion: kro.run/v1alpha1
      kind: WebApp
      metadata: { name: shop }
      status: { state: IN_PROGRESS }
`,
    });
    const r = await cli(['test', dir]);
    expect(r.stdout).toContain('8 passed, 0 failed');
    expect(r.code).toBe(0);
    // The status left with the observation: the Deployment has none again.
    const scenario = path.join(dir, 'ready.cosi-test.yaml');
    const text = await readFile(scenario, 'utf8');
    await writeFile(
      scenario,
      `${text}  - expect:
      apiVersion: apps/v1
      kind: Deployment
      metadata: { name: shop }
      status: { availableReplicas: 0 }
`,
    );
    const stale = await cli(['test', dir]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('error[unexpected-state]');
  });

  it('an output in a namespace no instance is in renders, in cosi test too, and takes an observed status there', async () => {
    const rgd = await readFile('fixtures/kro-webapp/rgd.yaml', 'utf8');
    const elsewhere = rgd.replace(
      '          name: ${schema.spec.name}\n          labels:',
      '          name: ${schema.spec.name}\n          namespace: stage\n          labels:',
    );
    expect(elsewhere).not.toBe(rgd);
    const dir = await tree({
      'rgd.yaml': elsewhere,
      'instances.yaml': await readFile('fixtures/kro-webapp/instances.yaml', 'utf8'),
      'stage.cosi-test.yaml': `name: the Deployments go to stage
manifests: [rgd.yaml, instances.yaml]
steps:
  - expect-converged: true
  - expect: { apiVersion: apps/v1, kind: Deployment, metadata: { name: blog, namespace: stage } }
`,
    });
    // With no observed status at all (cosi test always reads them), and with one in stage.
    expect((await cli(['test', dir])).stdout).toContain('2 passed, 0 failed');
    await writeFile(
      path.join(dir, 'observed.yaml'),
      observedShop('  availableReplicas: 1').replace(
        '  name: shop\n',
        '  name: shop\n  namespace: stage\n',
      ),
    );
    const r = await cli(['get', 'deployment', '-n', 'stage', '-f', dir, '-o', 'yaml']);
    expect(r.code).toBe(0);
    const shop = docs(r.stdout).find((d) => d.metadata.name === 'shop');
    expect(shop?.status).toEqual({ availableReplicas: 1 });
  });

  it('is never laid on a nested instance, whose status its own RGD writes, and says so', async () => {
    const dir = await tree({
      'inner.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: app.example }
spec:
  schema: { apiVersion: v1alpha1, kind: App, group: example.org, spec: { name: string } }
  resources:
    - id: cm
      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: '\${schema.spec.name}' } }
`,
      'outer.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: outer.example }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Outer
    group: example.org
    spec: {}
    status: { innerState: '\${inner.status.state}' }
  resources:
    - id: inner
      template:
        apiVersion: example.org/v1alpha1
        kind: App
        metadata: { name: '\${schema.metadata.name}-inner' }
        spec: { name: '\${schema.metadata.name}' }
---
apiVersion: example.org/v1alpha1
kind: Outer
metadata: { name: o1 }
spec: {}
`,
      'observed.yaml': `apiVersion: example.org/v1alpha1
kind: App
metadata:
  name: o1-inner
  annotations: { cosi.dev/observed: "true" }
status: { state: FAKED }
`,
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.stdout).toMatch(
      /observed\.yaml:1:1: warning\[observed-unused\]: the observed status of App default\/o1-inner is laid on nothing: that App is an instance RGD outer\.example writes \(its status is its own RGD's to write\)/,
    );
    const outer = await cli(['get', 'outer', 'o1', '-f', dir, '-o', 'json']);
    expect(JSON.parse(outer.stdout)).toMatchObject({ status: { innerState: 'ACTIVE' } });
  });

  it("an instance's status is replaced whole: a field read from an observed status goes when it does", async () => {
    const dir = await webapp();
    const project = await createTestProject({ manifests: dir, cwd: dir });
    try {
      await project.apply(observedShop('  availableReplicas: 1'));
      await project.converge();
      const before = await project.get<{ status: Record<string, unknown> }>('webapp', 'shop');
      expect(before?.spec.status).toMatchObject({ state: 'ACTIVE', availableReplicas: 1 });
      await project.destroy('observed', 'Deployments.apps:shop');
      await project.converge();
      const after = await project.get<{ status: Record<string, unknown> }>('webapp', 'shop');
      expect(after?.spec.status.state).toBe('IN_PROGRESS');
      expect(after?.spec.status).not.toHaveProperty('availableReplicas');
    } finally {
      await project.close();
    }
  });

  it("an edit of an observed status is checked as the object's status is, and keeps its id", async () => {
    const dir = await webapp({
      'edit.cosi-test.yaml': `name: edits of an observed status
manifests: [rgd.yaml, instances.yaml]
steps:
  - apply:
      apiVersion: apps/v1
      kind: Deployment
      metadata: { name: shop, annotations: { cosi.dev/observed: "true" } }
      status: { availableReplicas: 1 }
  - edit: { type: observed, id: "Deployments.apps:shop", spec: { status: { availableReplicas: many } } }
    expect-error: schema-violation
  - edit: { type: observed, id: "Deployments.apps:shop", spec: { name: blog } }
    expect-error: observed-status
  - edit: { type: observed, id: "Deployments.apps:shop", spec: { type: Nothings.example.org } }
    expect-error: observed-status
  - edit: { type: observed, id: "Deployments.apps:shop", spec: { status: { availableReplicas: 2 } } }
  - name: a patch of an observed status patches the status of the object it observes
    edit: { type: observed, id: "Deployments.apps:shop", patch: { status: { availableReplicas: 3 } } }
  - expect:
      apiVersion: kro.run/v1alpha1
      kind: WebApp
      metadata: { name: shop }
      status: { availableReplicas: 3 }
  - apply: more-observed.yaml
`,
      'more-observed.yaml': observedShop('  availableReplicas: 1', 'blog'),
    });
    const r = await cli(['test', dir]);
    expect(r.stdout).toContain('8 passed, 0 failed');
    expect(r.code).toBe(0);
  });
  it("an instance's status is kro's: a manifest's is dropped, and a scenario's patch of it refused", async () => {
    const dir = await webapp({
      'status.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: WebApp\nmetadata: { name: extra }\nspec: { name: extra }\nstatus: { state: ACTIVE }\n',
      'patch.cosi-test.yaml': `name: a patch of an instance's status
manifests: [rgd.yaml, instances.yaml]
steps:
  - edit: { type: webapp, id: shop, patch: { status: { url: hacked } } }
`,
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.stdout).toMatch(
      /status\.yaml:5:9: warning\[ignored-status\]: WebApp has the status subresource: the API server drops status written with the object/,
    );
    const extra = await cli(['get', 'webapp', 'extra', '-f', dir, '-o', 'json']);
    expect(JSON.parse(extra.stdout)).toMatchObject({ status: { state: 'IN_PROGRESS' } });
    const t = await cli(['test', path.join(dir, 'patch.cosi-test.yaml')]);
    expect(t.code).toBe(1);
    expect(t.stdout).toContain(
      'patch: WebApp has the status subresource, and the API server drops status from a patch of the object (kubectl patch --type merge writes it only with --subresource=status)',
    );
  });
});
