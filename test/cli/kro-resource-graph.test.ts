import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cli, cliOnce, REPO as REPO_ROOT } from './run-cli.js';

interface Doc {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; creationTimestamp?: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

const FOR_EACH = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: zones.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Zones
    spec:
      name: string
      zones: '[]string | default=["a","b"]'
      tiers: '[]string'
    status:
      configs: \${size(configs)}
  resources:
    - id: configs
      forEach:
        - zone: \${schema.spec.zones}
        - tier: \${schema.spec.tiers}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name + '-' + zone + '-' + tier}
        data:
          zone: \${zone}
    - id: summary
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name}-summary
        data:
          names: \${configs.map(c, c.metadata.name).join(",")}
---
apiVersion: kro.run/v1alpha1
kind: Zones
metadata:
  name: z
spec:
  name: z
  tiers: [web, db]
`;

const EXTERNAL_REF = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: reader.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Reader
    spec:
      config: string | default=shared
    status:
      color: \${shared.data.color}
  resources:
    - id: shared
      externalRef:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.config}
    - id: copy
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.metadata.name}-copy
        data:
          color: \${shared.data.color}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: shared
data:
  color: blue
---
apiVersion: kro.run/v1alpha1
kind: Reader
metadata:
  name: r
spec: {}
---
apiVersion: kro.run/v1alpha1
kind: Reader
metadata:
  name: missing
spec:
  config: nowhere
`;

const NESTED = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: app.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec:
      name: string
    status:
      configName: \${config.metadata.name}
  resources:
    - id: config
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name}-config
        data:
          app: \${schema.spec.name}
---
apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: stack.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Stack
    spec:
      apps: '[]string'
    status:
      configs: \${apps.map(a, a.status.configName)}
  resources:
    - id: apps
      forEach:
        - app: \${schema.spec.apps}
      template:
        apiVersion: kro.run/v1alpha1
        kind: App
        metadata:
          name: \${schema.metadata.name + '-' + app}
        spec:
          name: \${app}
---
apiVersion: kro.run/v1alpha1
kind: Stack
metadata:
  name: s
spec:
  apps: [web, db]
`;

/** The conditions of an instance whose resources are all ready, as kro writes them (`status.go`). */
const READY_CONDITIONS = [
  {
    type: 'InstanceManaged',
    status: 'True',
    reason: 'Managed',
    message: 'instance is properly managed with finalizers and labels',
    observedGeneration: 1,
  },
  {
    type: 'GraphResolved',
    status: 'True',
    reason: 'Resolved',
    message: 'runtime graph created and all resources resolved',
    observedGeneration: 1,
  },
  {
    type: 'ResourcesReady',
    status: 'True',
    reason: 'AllResourcesReady',
    message: 'all resources are created and ready',
    observedGeneration: 1,
  },
  { type: 'Ready', status: 'True', reason: 'Ready', message: '', observedGeneration: 1 },
];

const docs = (yaml: string): Doc[] => parseAllDocuments(yaml).map((d) => d.toJS() as Doc);

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A manifest tree in a temp dir: file name -> text. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kro-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

/** An RGD with one ConfigMap per instance, its schema and data lines given. */
const rgd = (schema: string, resources: string): string => `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: thing.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Thing
    spec:
${schema}
  resources:
${resources}`;

const configMap = (id: string, name: string, data = ''): string => `    - id: ${id}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: ${name}
        data:
          x: "1"
${data}`;

describe('kro ResourceGraphDefinitions', { timeout: 30_000 }, () => {
  it('renders the webapp fixture: Deployment, Service, and the Ingress only where enabled', async () => {
    const r = await cliOnce(['apply', '-f', 'fixtures/kro-webapp', '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const out = docs(r.stdout);
    const names = (kind: string) => out.filter((d) => d.kind === kind).map((d) => d.metadata.name);
    expect(names('Deployment')).toEqual(['blog', 'shop']);
    expect(names('Service')).toEqual(['blog-svc', 'shop-svc']);
    expect(names('Ingress')).toEqual(['shop']);
    const shop = out.find((d) => d.kind === 'Deployment' && d.metadata.name === 'shop');
    expect(shop?.spec).toMatchObject({
      replicas: 1,
      template: { spec: { containers: [{ image: 'nginx', ports: [{ containerPort: 80 }] }] } },
    });
    // The labels kro's applyDecoratorMetadata sets: the instance's uid deterministic, kro's
    // version a fixed one.
    expect(shop?.metadata.labels).toEqual({
      app: 'shop',
      'app.kubernetes.io/managed-by': 'kro',
      'kro.run/instance-group': 'kro.run',
      'kro.run/instance-id': expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-/,
      ) as string,
      'kro.run/instance-kind': 'WebApp',
      'kro.run/instance-name': 'shop',
      'kro.run/instance-namespace': 'default',
      'kro.run/instance-version': 'v1alpha1',
      'kro.run/kro-version': 'v0.9.3-cosi',
      'kro.run/node-id': 'deployment',
      'kro.run/owned': 'true',
    });
    // One instance's outputs share its id; another instance's differ.
    const idOf = (kind: string, name: string) =>
      out.find((d) => d.kind === kind && d.metadata.name === name)?.metadata.labels?.[
        'kro.run/instance-id'
      ];
    expect(idOf('Service', 'shop-svc')).toBe(idOf('Deployment', 'shop'));
    expect(idOf('Deployment', 'blog')).not.toBe(idOf('Deployment', 'shop'));
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/kro-webapp.apply.txt');
  });

  it('writes status expressions into the instance, omits a field whose data no one wrote, and is ACTIVE as kro is', async () => {
    const r = await cliOnce(['apply', '-f', 'fixtures/kro-webapp', '-o', 'yaml', '--stable']);
    const blog = docs(r.stdout).find((d) => d.kind === 'WebApp' && d.metadata.name === 'blog');
    expect(blog?.spec).toEqual({
      name: 'blog',
      image: 'nginx',
      port: 8080,
      replicas: 1,
      ingress: { enabled: false },
    });
    // availableReplicas reads status only a cluster writes: never invented, left out; the state
    // follows the resources' readiness alone (no readyWhen here), as kro's does.
    expect(blog?.status).toEqual({
      deploymentName: 'blog',
      state: 'ACTIVE',
      conditions: READY_CONDITIONS,
    });
    expect(r.stderr).not.toContain('rgd-waiting');
  });

  /** The webapp fixture with kro's example's readyWhen on the Deployment: status no one writes. */
  async function webappWaitingOnReplicas(): Promise<string> {
    const rgd = await readFile('fixtures/kro-webapp/rgd.yaml', 'utf8');
    const waiting = rgd.replace(
      '    - id: deployment\n',
      '    - id: deployment\n      readyWhen:\n        - ${deployment.spec.replicas == deployment.status.availableReplicas}\n',
    );
    expect(waiting).not.toBe(rgd);
    return tree({
      'rgd.yaml': waiting,
      'instances.yaml': await readFile('fixtures/kro-webapp/instances.yaml', 'utf8'),
    });
  }

  it('warns (rgd-waiting, at the instance) of each instance whose readyWhen waits, and exits 0', async () => {
    const dir = await webappWaitingOnReplicas();
    const r = await cli(['apply', '-f', dir, '--stable']);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('[rgd-waiting]'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /instances\.yaml:11:1: warning\[rgd-waiting\]: WebApps\.kro\.run\(default\/blog\) .*deployment: readyWhen .*\$\{deployment\.spec\.replicas == deployment\.status\.availableReplicas\}/,
    );
    // The Deployment is the RGD's output: a manifest of it would collide (output-collision), and
    // no other controller may write its status, so the hint is an observed status.
    expect(warnings[0]).toContain('annotated cosi.dev/observed: "true"');
  });

  it("says an instance waiting on a field of its own spec that it does not set is the user's to set", async () => {
    const rgd = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: app }
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec: { name: string, maybe: string }
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}' }
        data: { v: '\${schema.spec.maybe}' }
---
apiVersion: kro.run/v1alpha1
kind: App
metadata: { name: a }
spec: { name: a }
`;
    const dir = await tree({ 'app.yaml': rgd });
    const r = await cli(['check', '-f', dir]);
    const warning = r.stdout.split('\n').find((l) => l.includes('[rgd-waiting]')) ?? '';
    expect(warning).toContain('it reads spec.maybe, which it does not set');
    expect(warning).toContain("give the field a default in the RGD's schema");
    expect(warning).not.toContain('with a controller');
  });

  it("says a wait on a key its own template lacks is the template's to fix, not a cluster's status, and names the keys there", async () => {
    const rgd = (key: string, read: string) => `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: app }
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec: { name: string }
  resources:
    - id: base
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}-base' }
        data: { ${key}: 'yes', size: '1' }
    - id: flag
      includeWhen:
        - \${${read} == "yes"}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}-flag' }
---
apiVersion: kro.run/v1alpha1
kind: App
metadata: { name: a }
spec: { name: a }
`;
    // A YAML 1.1 boolean key: kubectl reads data: { on: ... } as the key "true".
    const yaml11 = await cli([
      'check',
      '-f',
      await tree({ 'app.yaml': rgd('on', 'base.data.on') }),
    ]);
    const warning = yaml11.stdout.split('\n').find((l) => l.includes('[rgd-waiting]')) ?? '';
    expect(warning).toContain('it waits on a field its own resources do not have');
    expect(warning).toContain(
      'base.data.on is not in base as its template renders it, and no cluster writes it: base.data has the keys "true", "size": the key on written unquoted is the boolean true as kubectl reads it (YAML 1.1), quote it in the template',
    );
    expect(warning).not.toContain('give the status a cluster would report');
    // A misspelt key, read with brackets.
    const typo = await cli([
      'check',
      '-f',
      await tree({ 'app.yaml': rgd('enabled', 'base.data["enable"]') }),
    ]);
    expect(typo.stdout).toContain(
      'base.data.enable is not in base as its template renders it, and no cluster writes it: base.data has the keys "enabled", "size": see the key in base\'s template',
    );
  });

  it('says an instance with no spec, whose RGD requires a field of it, needs one: its defaults do not apply', async () => {
    const dir = await tree({
      'app.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: app }
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec: { host: string | required=true, gateway: string | default=main }
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.metadata.name}' }
        data: { gateway: '\${schema.spec.gateway}' }
---
apiVersion: kro.run/v1alpha1
kind: App
metadata: { name: nospec }
`,
    });
    const r = await cli(['check', '-f', dir]);
    const warning = r.stdout.split('\n').find((l) => l.includes('[rgd-waiting]')) ?? '';
    expect(warning).toContain('it reads spec.gateway, and the instance has no spec');
    expect(warning).toContain(
      "(give the instance a spec: its RGD's schema requires spec.host, so spec has no default and neither have its fields)",
    );
    // The field has a default already: the advice is not to give it one.
    expect(warning).not.toContain("give the field a default in the RGD's schema");
  });

  it("says an instance with no spec, whose RGD requires nothing, needs the field or an optional read (kro's docs' test-silent-failure)", async () => {
    // website/docs/docs/concepts/15-instances.md: "The Optional instance here must specify str".
    const dir = await tree({
      'optional.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: optional
spec:
  schema:
    apiVersion: v1alpha1
    kind: Optional
    spec:
      # Implicit optional field.
      str: string
  resources:
    - id: testConfigMap
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.metadata.name}-config
          namespace: \${schema.metadata.namespace}
        data:
          str: \${schema.spec.str}
---
apiVersion: kro.run/v1alpha1
kind: Optional
metadata:
  name: test-silent-failure
  namespace: default
spec:
  # str unspecified
`,
    });
    const r = await cli(['check', '-f', dir]);
    const warning = r.stdout.split('\n').find((l) => l.includes('[rgd-waiting]')) ?? '';
    expect(warning).toContain(
      'it reads spec.str, and the instance has no spec: testConfigMap: ${schema.spec.str} (no such key: spec) (set spec.str in the instance, or read it as ${schema.spec.?str.orValue(...)}: no field of spec has a default, so kro gives the instance no spec)',
    );
    expect(warning).not.toContain('requires');
  });

  it('says an instance whose RGD did not load (a YAML error) needs that RGD, not only a CRD', async () => {
    const dir = await tree({
      'rgd.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: ResourceGraphDefinition\nmetadata: { name: app }\nspec:\n  schema:\n    apiVersion: v1alpha1\n    kind: App\n    spec: { name: string\n  resources: []\n',
      'app.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: App\nmetadata: { name: a }\nspec: { name: a }\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'if it is a kro instance, give the ResourceGraphDefinition whose spec.schema.kind is App (one with errors defines no kind)',
    );
    // kro's own kind before 0.2.
    const old = await tree({
      'rg.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: ResourceGroup\nmetadata: { name: app }\nspec: {}\n',
    });
    expect((await cli(['check', '-f', old])).stdout).toContain(
      "ResourceGroup is kro's name before 0.2 of ResourceGraphDefinition: write kind: ResourceGraphDefinition",
    );
    expect(r.stdout).toMatch(/rgd\.yaml:8:11: error\[yaml-syntax\]: this \{ is never closed/);
  });

  it('counts a resource left out by includeWhen as done: a status field that reads it is omitted, and the instance is ACTIVE', async () => {
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string\n      extra: boolean | default=false\n    status:\n      aName: ${a.metadata.name}\n      cName: ${c.metadata.name}',
        configMap('a', '${schema.spec.name}-a') +
          configMap('b', '${a.metadata.name}-b').replace(
            '      template:',
            '      includeWhen: ["${schema.spec.extra}"]\n      template:',
          ) +
          configMap('c', '${b.metadata.name}-c'),
      ),
      'things.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: lean\nspec:\n  name: lean\n---\napiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: full\nspec:\n  name: full\n  extra: true\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable', '--require-ready']);
    expect(r.stderr).not.toContain('rgd-waiting');
    expect(r.code).toBe(0);
    const status = (name: string) =>
      docs(r.stdout).find((d) => d.kind === 'Thing' && d.metadata.name === name)?.status;
    expect(status('lean')).toMatchObject({ aName: 'lean-a', state: 'ACTIVE' });
    expect(status('lean')).not.toHaveProperty('cName');
    expect(status('full')).toMatchObject({ aName: 'full-a', cName: 'full-a-b-c', state: 'ACTIVE' });
  });

  it('omits a status field that reads an item an empty collection lacks, as kro waits on index out of bounds', async () => {
    // kro's celDataPendingPatterns (pkg/runtime/errors.go) take "index out of bounds" as data
    // not there yet: the field is left out, the instance ACTIVE, not ERROR.
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: coll.kro.run }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Coll
    spec:
      zones: '[]string'
    status:
      count: \${size(cms)}
      first: \${cms[0].data.zone}
  resources:
    - id: cms
      forEach:
        - zone: \${schema.spec.zones}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.metadata.name}-\${zone}' }
        data: { zone: '\${zone}' }
`,
      'colls.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Coll\nmetadata: { name: some }\nspec: { zones: [a, b] }\n---\napiVersion: kro.run/v1alpha1\nkind: Coll\nmetadata: { name: none }\nspec: { zones: [] }\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.stderr).not.toContain('reconcile-failed');
    expect(r.code).toBe(0);
    const status = (name: string) =>
      docs(r.stdout).find((d) => d.kind === 'Coll' && d.metadata.name === name)?.status;
    expect(status('some')).toMatchObject({ count: 2, first: 'a', state: 'ACTIVE' });
    expect(status('none')).toMatchObject({ count: 0, state: 'ACTIVE' });
    expect(status('none')).not.toHaveProperty('first');
  });

  it('waits on an item a template reads from an empty list, and says to give or guard it', async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: oob.kro.run }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Oob
    spec:
      zones: '[]string'
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.metadata.name}' }
        data: { first: '\${schema.spec.zones[0]}' }
`,
      'oob.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Oob\nmetadata: { name: none }\nspec: { zones: [] }\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(0);
    const warning = r.stdout.split('\n').find((l) => l.includes('[rgd-waiting]')) ?? '';
    expect(warning).toContain(
      "stays in progress: it reads an item of spec.zones that the instance's list does not have: cm: ${schema.spec.zones[0]} (index out of bounds: 0) (give the list the item in the instance, or guard the read: size(schema.spec.zones) > 0 ? ... : ...)",
    );
  });

  it("fails an includeWhen that reads an instance field not set and without default, as kro's docs warn, and waits on one reading a resource", async () => {
    // kro's docs (concepts/rgd/02-resource-definitions/02-conditional-creation.md): "If the
    // field may be omitted, give it a default or guard the expression so a missing field does not
    // raise an evaluation error"; pkg/runtime/node.go IsIgnored waits only on resource data.
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: application.kro.run }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Application
    spec:
      name: string
      ingress:
        enabled: boolean
  resources:
    - id: config
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}' }
    - id: ingress
      includeWhen:
        - \${schema.spec.ingress.enabled}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}-ingress' }
    - id: monitor
      includeWhen:
        - \${config.data.monitor == "on"}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}-monitor' }
`,
      'apps.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Application\nmetadata: { name: my-app }\nspec:\n  name: my-app\n  ingress:\n    enabled: true\n---\napiVersion: kro.run/v1alpha1\nkind: Application\nmetadata: { name: bare }\nspec:\n  name: bare\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    const status = (name: string) =>
      docs(r.stdout).find((d) => d.kind === 'Application' && d.metadata.name === name)?.status;
    // The field given: the Ingress is rendered; the monitor waits on config's data.
    expect(docs(r.stdout).map((d) => `${d.kind}/${d.metadata.name}`)).toContain(
      'ConfigMap/my-app-ingress',
    );
    expect(status('my-app')).toMatchObject({ state: 'IN_PROGRESS' });
    // Left out, with no default: an evaluation error, not a wait.
    expect(status('bare')).toMatchObject({ state: 'ERROR' });
    expect(JSON.stringify(status('bare'))).toContain(
      'resource ingress: includeWhen ${schema.spec.ingress.enabled} at ',
    );
    expect(JSON.stringify(status('bare'))).toContain(
      'no such key: ingress (give the field a default, or guard the expression: has(...), ?.orValue(...))',
    );
  });

  it("gives CEL the instance's metadata as the API server holds it, creationTimestamp too (kro's metadata_fields_test)", async () => {
    // kro's test/integration/suites/core/metadata_fields_test.go, and the creation time the API
    // server sets on every object (here the run's clock: the fixed epoch with --stable).
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: meta.kro.run }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Meta
    spec:
      x: string | default=y
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.metadata.name}-\${schema.metadata.namespace}-metadata-test
          namespace: \${schema.metadata.namespace}
        data:
          instance-name: \${schema.metadata.name}
          instance-namespace: \${schema.metadata.namespace}
          instance-generation: \${string(schema.metadata.generation)}
          instance-generateName: \${schema.metadata.?generateName.orValue("not-set")}
          instance-has-labels: '\${has(schema.metadata.labels) ? "true" : "false"}'
          created: \${schema.metadata.creationTimestamp}
          created-year: \${string(timestamp(schema.metadata.creationTimestamp).getFullYear())}
`,
      'meta.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Meta\nmetadata:\n  name: test-instance\n  namespace: ns1\n  labels: { test-label: test-value }\nspec: {}\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable', '--require-ready']);
    expect(r.stderr).not.toContain('rgd-waiting');
    expect(r.code).toBe(0);
    const all = docs(r.stdout);
    const instance = all.find((d) => d.kind === 'Meta');
    const cm = all.find((d) => d.kind === 'ConfigMap');
    expect(cm?.metadata.name).toBe('test-instance-ns1-metadata-test');
    expect(cm?.data).toMatchObject({
      'instance-name': 'test-instance',
      'instance-namespace': 'ns1',
      'instance-generation': '1',
      'instance-generateName': 'not-set',
      'instance-has-labels': 'true',
      created: instance?.metadata.creationTimestamp,
    });
    expect(cm?.data?.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(cm?.data?.['created-year']).toBe(String(cm?.data?.created).slice(0, 4));
  });

  it("renders the instance with kro's labels on it, as kro labels it before it renders (ensureManaged)", async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: labeled.kro.run }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Labeled
    spec:
      x: string | default=y
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.metadata.name}' }
        data:
          has-labels: '\${has(schema.metadata.labels) ? "true" : "false"}'
          owned: \${schema.metadata.labels["kro.run/owned"]}
          rgd: \${schema.metadata.labels["kro.run/resource-graph-definition-name"]}
          team: \${schema.metadata.?labels["team"].orValue("none")}
`,
      'labeled.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Labeled\nmetadata: { name: bare }\nspec: {}\n---\napiVersion: kro.run/v1alpha1\nkind: Labeled\nmetadata: { name: mine, labels: { team: a } }\nspec: {}\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable', '--require-ready']);
    expect(r.stderr).not.toContain('rgd-waiting');
    expect(r.code).toBe(0);
    const data = (name: string) =>
      docs(r.stdout).find((d) => d.kind === 'ConfigMap' && d.metadata.name === name)?.data;
    expect(data('bare')).toEqual({
      'has-labels': 'true',
      owned: 'true',
      rgd: 'labeled.kro.run',
      team: 'none',
    });
    expect(data('mine')).toEqual({
      'has-labels': 'true',
      owned: 'true',
      rgd: 'labeled.kro.run',
      team: 'a',
    });
  });

  it("says an instance whose template reads an annotation it does not set must set it or read it optionally, not give a cluster's status", async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: ann.kro.run }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Ann
    spec:
      x: string | default=y
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.metadata.name}' }
        data:
          team: \${schema.metadata.annotations["team"]}
`,
      'anns.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Ann\nmetadata: { name: bare }\nspec: {}\n---\napiVersion: kro.run/v1alpha1\nkind: Ann\nmetadata: { name: other, annotations: { owner: x } }\nspec: {}\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(0);
    const warnings = r.stdout.split('\n').filter((l) => l.includes('[rgd-waiting]'));
    expect(warnings).toHaveLength(2);
    for (const [warning, missing] of [
      [warnings[0], 'annotations'],
      [warnings[1], 'team'],
    ]) {
      expect(warning).toContain(
        `it reads the instance's metadata.annotations, which does not have what it reads: cm: \${schema.metadata.annotations["team"]} (no such key: ${missing}) (set it on the instance, or read it optionally: \${schema.metadata.?annotations[?"KEY"].orValue("...")})`,
      );
      expect(warning).not.toContain('observed');
    }
  });

  it('explains --why-not a resource an RGD did not render: the includeWhen that left it out (or a dependency), what waits, what it rendered instead', async () => {
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string\n      extra: boolean | default=false',
        configMap('a', '${schema.spec.name}-a') +
          configMap('b', '${a.metadata.name}-b').replace(
            '      template:',
            '      includeWhen: ["${schema.spec.extra}"]\n      template:',
          ) +
          configMap('c', '${b.metadata.name}-c'),
      ),
      'things.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: lean\nspec:\n  name: lean\n',
    });
    const r = await cli(['explain', 'configmap', 'lean-a-b-c', '-f', dir, '--why-not']);
    expect(r.code).toBe(0);
    // The instance with the output's name is no input of an RGD: never said.
    expect(r.stdout).not.toContain('input-missing');
    expect(r.stdout).toMatch(
      /left-out: for Things\.kro\.run\(default\/lean\), resource b was left out: its includeWhen \$\{schema\.spec\.extra\} \(.*rgd\.yaml:\d+:\d+\) was false/,
    );
    expect(r.stdout).toContain(
      'left-out: for Things.kro.run(default/lean), resource c depends on b, which was not rendered',
    );
    expect(r.stdout).toContain(
      'rendered-other: for Things.kro.run(default/lean), resource a rendered ConfigMaps.core(default/lean-a)',
    );
    // Not rendered before rendered under another name.
    expect(r.stdout.indexOf('left-out')).toBeLessThan(r.stdout.indexOf('rendered-other'));

    // A resource behind a readyWhen that waits on status no one writes: it waits.
    const waiting = await webappWaitingOnReplicas();
    const w = await cli(['explain', 'service', 'blog-svc', '-f', waiting, '--why-not']);
    expect(w.stdout).toMatch(
      /waiting: for WebApps\.kro\.run\(default\/blog\), resource service depends on deployment, which is not ready: readyWhen/,
    );
  });

  it('exits 1 with --require-ready while an instance waits, with the same warnings', async () => {
    const r = await cli([
      'apply',
      '-f',
      await webappWaitingOnReplicas(),
      '--stable',
      '--require-ready',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.includes('[rgd-waiting]'))).toHaveLength(2);
  });

  it('passes cosi check on the fixture', async () => {
    const r = await cli(['check', '-f', 'fixtures/kro-webapp']);
    expect(r.code).toBe(0);
  });

  it('validates instances against the generated schema', async () => {
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string | required=true\n      size: integer | minimum=1 maximum=3',
        configMap('config', '${schema.spec.name}'),
      ),
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  size: 5\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('thing.yaml:6:3: error[schema-violation]');
    expect(r.stdout).toContain('thing.yaml:6:9: error[schema-violation]');
  });

  it.each([
    ['rgd-bad-schema', '      name: strin', configMap('config', 'a'), 'rgd.yaml:10:13'],
    [
      'rgd-bad-schema',
      '      port: integer | default=eighty',
      configMap('config', 'a'),
      'rgd.yaml:10:13',
    ],
    [
      'rgd-bad-schema',
      '      color: string | default=pink enum=red,blue',
      configMap('config', 'a'),
      'rgd.yaml:10:14',
    ],
    [
      'rgd-bad-schema',
      '      port: integer | default=0 minimum=1 maximum=65535',
      configMap('config', 'a'),
      'rgd.yaml:10:13',
    ],
    [
      'rgd-unknown-ref',
      '      name: string',
      configMap('config', '${nobody.metadata.name}'),
      'rgd.yaml:17:17',
    ],
    [
      'rgd-cycle',
      '      name: string',
      configMap('first', '${second.metadata.name}-a') +
        configMap('second', '${first.metadata.name}'),
      'rgd.yaml:17:17',
    ],
    [
      'rgd-type-mismatch',
      '      port: integer',
      configMap('config', 'port-${schema.spec.port}'),
      'rgd.yaml:17:22',
    ],
    [
      'rgd-bad-expression',
      '      name: string',
      configMap('config', '${schema.spec.(}'),
      // At the token the parser names (`1:12: found .`), not the `${` (column 17).
      'rgd.yaml:17:30',
    ],
    [
      'rgd-unknown-field',
      '      name: string',
      configMap('config', '${schema.spec.nmae}'),
      'rgd.yaml:17:17',
    ],
    [
      'rgd-unknown-field',
      '      name: string',
      configMap('first', '${schema.spec.name}') +
        configMap('second', '${first.metadata.name}', '          y: ${first.dta.x}\n'),
      'rgd.yaml:28:14',
    ],
    [
      'rgd-type-mismatch',
      '      size: integer',
      configMap('config', 'a').replace(
        '      template:',
        '      includeWhen:\n        - ${schema.spec.size}\n      template:',
      ),
      'rgd.yaml:14:11',
    ],
    [
      'rgd-type-mismatch',
      '      size: integer',
      configMap('config', 'a', '          y: ${schema.spec.size}\n'),
      'rgd.yaml:20:14',
    ],
    [
      'rgd-type-mismatch',
      '      name: string',
      configMap('first', '${schema.spec.name}') +
        configMap('second', 'b', '          y: ${first.metadata.generation}\n'),
      'rgd.yaml:28:14',
    ],
    [
      'rgd-unknown-kind',
      '      name: string',
      configMap('config', 'a').replace('kind: ConfigMap', 'kind: ConfigMop'),
      'rgd.yaml:15:15',
    ],
  ])('refuses an RGD with %s at the expression', async (code, schema, resources, at) => {
    const dir = await tree({ 'rgd.yaml': rgd(schema, resources) });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${at}: error[${code}]`);
  });

  it('catches a template that renders an invalid Deployment at the instance', async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: app.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec:
      replicas: string | default=three
  resources:
    - id: deployment
      template:
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: app
        spec:
          # A value of the JSON parsed when rendered: its type (dyn) is known only then.
          replicas: \${json.unmarshal('"' + schema.spec.replicas + '"')}
          selector:
            matchLabels:
              app: web
          template:
            metadata:
              labels:
                app: web
            spec:
              containers:
                - name: web
                  image: nginx
`,
      'app.yaml': 'apiVersion: kro.run/v1alpha1\nkind: App\nmetadata:\n  name: a\nspec: {}\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /app\.yaml:1:1: error\[reconcile-failed\]: .*renders an invalid Deployment: \/spec\/replicas: must be integer/,
    );
  });

  it('keeps what an instance rendered before when an edit makes a resource fail to render, as kro prunes only after a clean apply', async () => {
    const fixture = path.join(REPO_ROOT, 'fixtures/kro-webapp');
    const dir = await tree({
      'rgd.yaml': await readFile(path.join(fixture, 'rgd.yaml'), 'utf8'),
      'instances.yaml': await readFile(path.join(fixture, 'instances.yaml'), 'utf8'),
      'keep.cosi-test.yaml': `name: a failed render keeps the resources
manifests: .
steps:
  - edit:
      type: WebApp
      id: blog
      spec: { spec: { replicas: -1 } }
  - expect-findings:
      - code: reconcile-failed
  - expect:
      - apiVersion: apps/v1
        kind: Deployment
        metadata: { name: blog }
        spec: { replicas: 1 }
      - apiVersion: v1
        kind: Service
        metadata: { name: blog-svc }
  - edit:
      type: WebApp
      id: blog
      spec: { spec: { replicas: 2 } }
  - expect:
      - apiVersion: apps/v1
        kind: Deployment
        metadata: { name: blog }
        spec: { replicas: 2 }
  - destroy: { type: WebApp, id: blog }
  - expect-absent:
      - { type: Deployment, id: blog }
      - { type: Service, id: blog-svc }
`,
    });
    const r = await cli(['test', path.join(dir, 'keep.cosi-test.yaml')]);
    expect(r.stdout + r.stderr).toContain('scenarios: 1 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('gives an instance with a resource that failed to render state ERROR and Ready=False, as kro does', async () => {
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string',
        configMap('good', '${schema.spec.name}-good') +
          `    - id: bad
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name}-bad
        data:
          # A number, known only when rendered (json.unmarshal is dyn to the checker).
          n: \${json.unmarshal('1')}
`,
      ),
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  name: one\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(1);
    const thing = docs(r.stdout).find((d) => d.kind === 'Thing');
    expect(thing?.status?.state).toBe('ERROR');
    const ready = (thing?.status?.conditions as Record<string, string>[]).find(
      (c) => c.type === 'Ready',
    );
    expect(ready).toMatchObject({ status: 'False', reason: 'NotReady' });
    expect(ready?.message).toMatch(/^resource error: resource bad renders an invalid ConfigMap/);
  });

  it('runs the RGDs that load beside one that does not: the render error of one and the cycle of the other are both reported', async () => {
    const cycle = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: loop.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Loop
    spec: {}
  resources:
${configMap('one', '${two.metadata.name}-1')}${configMap('two', '${one.metadata.name}-2')}`;
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string',
        `    - id: bad
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name}
        data:
          n: \${json.unmarshal('1')}
`,
      ),
      'loop.yaml': cycle,
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  name: one\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/loop\.yaml:\d+:\d+: error\[rgd-cycle\]/);
    expect(r.stdout).toMatch(
      /thing\.yaml:1:1: error\[reconcile-failed\]: .*renders an invalid ConfigMap/,
    );
    // apply shows the state the others reached, and fails.
    const applied = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toMatch(/error\[rgd-cycle\]/);
    expect(docs(applied.stdout).find((d) => d.kind === 'Thing')?.status?.state).toBe('ERROR');
  });

  it('refuses a rendered Deployment with a field its kind does not have, as the same manifest is', async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: app.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec:
      deploySpec: object
  resources:
    - id: deployment
      template:
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: app
        # An open object: what it holds is known only when rendered.
        spec: \${schema.spec.deploySpec}
`,
      'app.yaml': `apiVersion: kro.run/v1alpha1
kind: App
metadata:
  name: a
spec:
  deploySpec:
    replica: 3
    selector: { matchLabels: { app: web } }
    template:
      metadata: { labels: { app: web } }
      spec: { containers: [{ name: web, image: nginx }] }
`,
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /app\.yaml:1:1: error\[reconcile-failed\]: .*renders an invalid Deployment: \/spec\/replica: unknown field "replica" \(did you mean "replicas"\?\)/,
    );
  });

  it('fails, as kro does when it applies, a template without metadata.name: no name is made up', async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: app.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    spec: {}
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { labels: { a: b } }
`,
      'app.yaml': 'apiVersion: kro.run/v1alpha1\nkind: App\nmetadata:\n  name: a\nspec: {}\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /app\.yaml:1:1: error\[reconcile-failed\]: .*resource cm renders a ConfigMap without metadata\.name: kro applies it as written, and the API server refuses an object without a name/,
    );
  });

  it('orders resources by their references and waits on readyWhen that nothing satisfies', async () => {
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string',
        configMap('late', '${early.metadata.name}-late') +
          configMap('early', '${schema.spec.name}') +
          `    - id: gated
      readyWhen:
        - \${gated.data.ready == "true"}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: gated
    - id: after
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${gated.metadata.name}-after
`,
      ),
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  name: app\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const names = docs(r.stdout)
      .filter((d) => d.kind === 'ConfigMap')
      .map((d) => d.metadata.name);
    expect(names).toEqual(['app', 'app-late', 'gated']);
  });

  it("checks a forEach resource's readyWhen on each item, as each", async () => {
    const gated = (values: string): string =>
      rgd(
        `      values: '[]string | default=${values}'`,
        `    - id: cms
      forEach:
        - v: \${schema.spec.values}
      readyWhen:
        - \${each.data.v != "no"}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: cm-\${v}
        data:
          v: \${v}
    - id: after
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: after-\${string(size(cms))}
`,
      );
    const names = async (values: string): Promise<string[]> => {
      const dir = await tree({
        'rgd.yaml': gated(values),
        'thing.yaml': 'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec: {}\n',
      });
      const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
      expect(r.code).toBe(0);
      return docs(r.stdout)
        .filter((d) => d.kind === 'ConfigMap')
        .map((d) => d.metadata.name);
    };
    expect(await names('["a","b"]')).toEqual(['after-2', 'cm-a', 'cm-b']);
    // One item not ready: what depends on the collection waits.
    expect(await names('["a","no"]')).toEqual(['cm-a', 'cm-no']);
  });

  it("refuses a forEach of more than kro's 1000 resources at the instance", async () => {
    const dir = await tree({
      'rgd.yaml': rgd(
        '      count: integer',
        `    - id: cms
      forEach:
        - a: \${lists.range(schema.spec.count)}
        - b: \${lists.range(2)}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${"cm-%d-%d".format([a, b])}
`,
      ),
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  count: 501\n',
      'ok.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: ok\nspec:\n  count: 500\n',
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /thing\.yaml:1:1: error\[reconcile-failed\]: .*resource cms: collection size of 1002 is over the maximum collection size of 1000/,
    );
    expect(r.stdout).not.toContain('ok.yaml');
  });

  it('makes the instances of spec.schema.scope: Cluster cluster-scoped', async () => {
    const dir = await tree({
      'rgd.yaml': rgd('      name: string', configMap('cm', '${schema.spec.name}'))
        .replace('    kind: Thing\n', '    kind: Thing\n    scope: Cluster\n')
        .replace(
          '          name: ${schema.spec.name}\n',
          '          name: ${schema.spec.name}\n          namespace: apps\n',
        ),
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  name: one\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const out = parseAllDocuments(r.stdout).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } },
    );
    expect(out.map((d) => [d.kind, d.metadata.namespace, d.metadata.name])).toEqual([
      ['ConfigMap', 'apps', 'one'],
      ['Thing', undefined, 't'],
    ]);
  });

  it('shows a cluster-scoped instance to CEL without metadata.namespace', async () => {
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string\n    status:\n      ns: ${schema.metadata.?namespace.orValue("none")}',
        configMap('cm', '${schema.spec.name}'),
      )
        .replace('    kind: Thing\n', '    kind: Thing\n    scope: Cluster\n')
        .replace(
          '          name: ${schema.spec.name}\n',
          '          name: ${schema.spec.name}\n          namespace: apps\n',
        ),
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  name: one\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    expect(docs(r.stdout).find((d) => d.kind === 'Thing')?.status).toMatchObject({
      ns: 'none',
      state: 'ACTIVE',
    });
  });

  it('renders a resource with an empty forEach once, as kro does', async () => {
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string',
        configMap('cm', '${schema.spec.name}').replace(
          '      template:',
          '      forEach: []\n      template:',
        ),
      ),
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  name: one\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const names = docs(r.stdout)
      .filter((d) => d.kind === 'ConfigMap')
      .map((d) => d.metadata.name);
    expect(names).toEqual(['one']);
  });

  it('stamps one resource per forEach combination, and a reference to it is the list', async () => {
    const dir = await tree({ 'zones.yaml': FOR_EACH });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const out = docs(r.stdout);
    const maps = out.filter((d) => d.kind === 'ConfigMap');
    expect(maps.map((d) => d.metadata.name)).toEqual([
      'z-a-db',
      'z-a-web',
      'z-b-db',
      'z-b-web',
      'z-summary',
    ]);
    expect(maps.at(-1)?.data).toEqual({ names: 'z-a-web,z-a-db,z-b-web,z-b-db' });
    // Each item's place in the collection, as kro labels it; the resource that is no collection
    // has none.
    const place = (name: string) => {
      const labels = maps.find((d) => d.metadata.name === name)?.metadata.labels ?? {};
      return [labels['kro.run/collection-index'], labels['kro.run/collection-size']];
    };
    expect(['z-a-web', 'z-a-db', 'z-b-web', 'z-b-db', 'z-summary'].map(place)).toEqual([
      ['0', '4'],
      ['1', '4'],
      ['2', '4'],
      ['3', '4'],
      [undefined, undefined],
    ]);
    // The conditions of kro's own e2e assert (check-arbitary-objects/instance-create-assert.yaml).
    expect(out.find((d) => d.kind === 'Zones')?.status).toEqual({
      configs: 4,
      state: 'ACTIVE',
      conditions: READY_CONDITIONS,
    });
    // And the labels of its check-external-references assert.
    expect(out.find((d) => d.kind === 'Zones')?.metadata.labels).toMatchObject({
      'kro.run/owned': 'true',
      'kro.run/resource-graph-definition-name': 'zones.kro.run',
      'kro.run/kro-version': 'v0.9.3-cosi',
    });
  });

  it('reads an externalRef, and waits (without failing) while it does not exist', async () => {
    const dir = await tree({ 'reader.yaml': EXTERNAL_REF });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const out = docs(r.stdout);
    expect(out.filter((d) => d.kind === 'ConfigMap').map((d) => d.metadata.name)).toEqual([
      'r-copy',
      'shared',
    ]);
    const status = (name: string) =>
      out.find((d) => d.kind === 'Reader' && d.metadata.name === name)?.status;
    expect(status('r')).toMatchObject({ color: 'blue', state: 'ACTIVE' });
    // What an externalRef names can be given as a manifest.
    expect(r.stderr).toContain('give the resource the externalRef names as a manifest');
    expect(status('missing')).toMatchObject({ state: 'IN_PROGRESS' });
    expect(
      (status('missing')?.conditions as Record<string, unknown>[]).find((c) => c.type === 'Ready'),
    ).toMatchObject({ status: 'False', message: expect.stringContaining('nowhere') as string });
  });

  it("reads an externalRef in the namespace an expression names, another than the instance's", async () => {
    // kro's docs (Scope): a cluster-scoped RGD reads a Secret of the namespace its spec names.
    const dir = await tree({
      'rgd.yaml': rgd(
        '      name: string\n      from: string | default=shared\n    status:\n      secretType: ${secret.type}',
        `    - id: secret
      externalRef:
        apiVersion: v1
        kind: Secret
        metadata:
          name: db-credentials
          namespace: \${schema.spec.from}
` + configMap('cm', '${schema.spec.name}'),
      ),
      'secret.yaml':
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\n  namespace: shared\ntype: Opaque\n',
      'thing.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  name: one\n',
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.stderr).not.toContain('may not read');
    expect(r.code).toBe(0);
    const thing = docs(r.stdout).find((d) => d.kind === 'Thing');
    expect(thing?.status).toMatchObject({ secretType: 'Opaque', state: 'ACTIVE' });
  });

  it('reads an external collection: the resources its label selector selects, in every namespace', async () => {
    // kro's docs (External Collections): metadata.selector instead of a name, a CEL value in
    // matchExpressions, the collection as a list.
    const team = (name: string, namespace: string, labels: string) => `---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: ${namespace}
  labels: {${labels}}
data:
  priority: ${name.startsWith('crit') ? 'critical' : 'low'}
`;
    const collection = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: teams.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Team
    spec:
      teamName: string
    status:
      configCount: \${size(teamConfigs)}
      names: \${teamConfigs.map(c, c.metadata.namespace + "/" + c.metadata.name).join(",")}
      hasCritical: \${teamConfigs.exists(c, c.data.?priority.orValue("") == "critical")}
      everywhere: \${string(size(everything))}
  resources:
    - id: teamConfigs
      externalRef:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          selector:
            matchExpressions:
              - key: team
                operator: In
                values: ["\${schema.spec.teamName}"]
              - key: deprecated
                operator: DoesNotExist
      readyWhen:
        - \${each.data.?priority.hasValue()}
    - id: everything
      externalRef:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          namespace: other
          selector: {}
---
apiVersion: kro.run/v1alpha1
kind: Team
metadata:
  name: bravo
spec:
  teamName: bravo
${team('web', 'default', 'team: bravo')}${team('crit-db', 'other', 'team: bravo')}${team('old', 'default', 'team: bravo, deprecated: "yes"')}${team('alpha', 'other', 'team: alpha')}`;
    const dir = await tree({ 'teams.yaml': collection });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const status = docs(r.stdout).find((d) => d.kind === 'Team')?.status;
    expect(status).toMatchObject({
      configCount: 2,
      names: 'default/web,other/crit-db',
      hasCritical: true,
      everywhere: '2',
      state: 'ACTIVE',
    });

    // A ConfigMap that appears later, in another namespace than the instance's, wakes it.
    await writeFile(
      path.join(dir, 'wake.cosi-test.yaml'),
      `name: a new team ConfigMap elsewhere is counted
manifests: .
steps:
  - expect: { apiVersion: kro.run/v1alpha1, kind: Team, metadata: { name: bravo }, status: { configCount: 2 } }
  - apply:
      apiVersion: v1
      kind: ConfigMap
      metadata: { name: cache, namespace: other, labels: { team: bravo } }
  - expect: { apiVersion: kro.run/v1alpha1, kind: Team, metadata: { name: bravo }, status: { configCount: 3, names: "default/web,other/cache,other/crit-db" } }
`,
    );
    const scenario = await cli(['test', path.join(dir, 'wake.cosi-test.yaml')]);
    expect(scenario.stdout + scenario.stderr).toMatch(
      /scenarios: 1 passed, 0 failed \(steps: 3 passed, 0 failed\)/,
    );
    expect(scenario.code).toBe(0);

    const bad = await tree({
      'teams.yaml': collection
        .replace('operator: DoesNotExist', 'operator: Missing')
        .replace(
          '          namespace: other\n',
          '          namespace: other\n          name: one\n',
        ),
    });
    const checked = await cli(['check', '-f', bad]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(
      /teams\.yaml:\d+:\d+.*resource teamConfigs: invalid label selector: matchExpressions\[1\]: "Missing" is not a valid label selector operator/,
    );
    expect(checked.stdout).toMatch(
      /resource everything: an externalRef has exactly one of metadata.name or metadata.selector/,
    );
  });

  it("has kro's cel-go extensions beyond the API server's: cel.bind, strings.quote, a string's reverse", async () => {
    const bind = (status: string): string => `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: bind.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Bind
    spec:
      name: string
    status:
${status}
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${cel.bind(n, schema.spec.name, n + "-" + n)}
---
apiVersion: kro.run/v1alpha1
kind: Bind
metadata: {name: b}
spec: {name: abc}
`;
    const dir = await tree({
      'bind.yaml': bind(`      quoted: \${strings.quote(schema.spec.name + '"')}
      reversed: \${(schema.spec.name + "→é").reverse()}
      doubled: \${cel.bind(x, size(schema.spec.name), cel.bind(y, x * 2, [x, y]))}`),
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const out = docs(r.stdout);
    expect(out.find((d) => d.kind === 'ConfigMap')?.metadata.name).toBe('abc-abc');
    expect(out.find((d) => d.kind === 'Bind')?.status).toMatchObject({
      quoted: '"abc\\""',
      reversed: 'é→cba',
      doubled: [3, 6],
    });

    // The bound variable has the type of its value; a name nothing binds is unknown.
    const wrong = await tree({
      'bind.yaml': bind(`      a: \${cel.bind(x, schema.spec.name, x * 2)}
      b: \${cel.bind(x, schema.spec.name, x + y)}`),
    });
    const checked = await cli(['check', '-f', wrong]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(
      /bind\.yaml:12:10: error\[rgd-type-mismatch\]: .*no matching overload for '_\*_' applied to '\(string, int\)'/,
    );
    expect(checked.stdout).toMatch(/bind\.yaml:13:10: error\[rgd-unknown-ref\]: .*references "y"/);
  });

  it('gives a nested instance its status, which the outer instance reads', async () => {
    const dir = await tree({ 'stack.yaml': NESTED });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const out = docs(r.stdout);
    const apps = out.filter((d) => d.kind === 'App');
    expect(apps.map((d) => [d.metadata.name, d.status?.configName, d.status?.state])).toEqual([
      ['s-db', 'db-config', 'ACTIVE'],
      ['s-web', 'web-config', 'ACTIVE'],
    ]);
    expect(apps[0]?.metadata.labels).toMatchObject({
      'kro.run/resource-graph-definition-name': 'stack.kro.run',
      'kro.run/instance-name': 's',
    });
    expect(out.find((d) => d.kind === 'Stack')?.status).toMatchObject({
      configs: ['web-config', 'db-config'],
      state: 'ACTIVE',
    });
  });

  it('leaves a manifest alone that has the id of a nested instance', async () => {
    const manifest = `---
apiVersion: kro.run/v1alpha1
kind: App
metadata:
  name: s-web
spec:
  name: mine
`;
    const dir = await tree({ 'stack.yaml': NESTED + manifest });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/resource apps: App s-web exists and is not this instance's/);
    const applied = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    const mine = docs(applied.stdout).find((d) => d.kind === 'App' && d.metadata.name === 's-web');
    expect(mine?.spec).toEqual({ name: 'mine' });
  });

  it("graph shows each RGD's resources in their dependency order", async () => {
    const text = await cliOnce(['graph', '-f', 'fixtures/kro-webapp']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      [
        '  renders  deployment  Deployments.apps',
        '           service     Services.core                after deployment',
        '           ingress     Ingresses.networking.k8s.io  after service; includeWhen',
      ].join('\n'),
    );
    const json = await cliOnce(['graph', '-f', 'fixtures/kro-webapp', '-o', 'json']);
    const graph = JSON.parse(json.stdout) as {
      resourceGraphs: { controller: string; resources: { id: string; dependsOn: string[] }[] }[];
    };
    expect(graph.resourceGraphs).toHaveLength(1);
    expect(graph.resourceGraphs[0]?.resources.map((r) => [r.id, r.dependsOn])).toEqual([
      ['deployment', []],
      ['service', ['deployment']],
      ['ingress', ['service']],
    ]);
    const dot = await cliOnce(['graph', '-f', 'fixtures/kro-webapp', '-o', 'dot']);
    expect(dot.stdout).toContain(
      '"ResourceGraph(webapp.kro.run)/deployment" -> "ResourceGraph(webapp.kro.run)/service";',
    );
    const rendered = spawnSync('dot', ['-Tsvg'], { input: dot.stdout, encoding: 'utf8' });
    expect(rendered.status).toBe(0);
    expect(rendered.stdout).toContain('resources in render order');
  });

  it("graph -o mermaid and -o tree show each RGD's resources in render order too, as -o dot does", async () => {
    const mermaid = await cliOnce(['graph', '-f', 'fixtures/kro-webapp', '-o', 'mermaid']);
    expect(mermaid.code).toBe(0);
    const g = 'g_ResourceGraph_webapp_kro_run_';
    expect(mermaid.stdout).toContain(
      [
        `  subgraph ${g}["ResourceGraph(webapp.kro.run): resources in render order"]`,
        `    ${g}deployment(["deployment: Deployments.apps"])`,
        `    ${g}service(["service: Services.core"])`,
        `    ${g}ingress(["ingress: Ingresses.networking.k8s.io (includeWhen)"])`,
        `    ${g}deployment --> ${g}service`,
        `    ${g}service --> ${g}ingress`,
        '  end',
      ].join('\n'),
    );
    for (const args of [[], ['--resources']]) {
      const tree = await cli(['graph', '-f', 'fixtures/kro-webapp', '-o', 'tree', ...args]);
      expect(tree.code).toBe(0);
      expect(tree.stdout).toContain(
        [
          'ResourceGraph(webapp.kro.run): resources in render order',
          '└─ deployment  Deployments.apps',
          '   └─ service  Services.core',
          '      └─ ingress  Ingresses.networking.k8s.io  (includeWhen)',
        ].join('\n'),
      );
    }
  });

  it('graph draws the status write of an RGD controller on its input edge, not as a cycle', async () => {
    const text = await cliOnce(['graph', '-f', 'fixtures/kro-webapp']);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('cycle:');
    expect(text.stdout).toMatch(
      /^ {10}status {3}WebApps\.kro\.run \(of the instances it reads\)$/m,
    );
    const controller = '"controller:ResourceGraph(webapp.kro.run)"';
    const dot = await cliOnce(['graph', '-f', 'fixtures/kro-webapp', '-o', 'dot']);
    expect(dot.stdout).toContain(
      `"type:WebApps.kro.run" -> ${controller} [style=solid, label="status", dir=both];`,
    );
    expect(dot.stdout).not.toContain(`${controller} -> "type:WebApps.kro.run"`);
    const json = await cliOnce(['graph', '-f', 'fixtures/kro-webapp', '-o', 'json']);
    const graph = JSON.parse(json.stdout) as {
      edges: { controller: string; type: string; kind: string }[];
      statusWrites: { controller: string; type: string }[];
    };
    expect(graph.statusWrites).toEqual([
      { controller: 'ResourceGraph(webapp.kro.run)', type: 'WebApps.kro.run' },
    ]);
    expect(graph.edges.filter((e) => e.type === 'WebApps.kro.run').map((e) => e.kind)).toEqual([
      'primary',
    ]);
    const focus = ['graph', '-f', 'fixtures/kro-webapp', '--focus', 'deployment/shop', '-o', 'dot'];
    expect((await cli(focus)).stdout).toContain(
      `"resource:default/WebApps.kro.run/shop" -> ${controller} [style=solid, label="status", dir=both`,
    );
    const mermaid = await cliOnce(['graph', '-f', 'fixtures/kro-webapp', '-o', 'mermaid']);
    expect(mermaid.stdout).toContain(
      't_WebApps_kro_run <-->|"status"| c_ResourceGraph_webapp_kro_run_',
    );
    const svg = await cli(['graph', '-f', 'fixtures/kro-webapp', '-o', 'svg']);
    expect(svg.code).toBe(0);
    // One edge between the instance type and the controller, with a head at each end.
    const edges = svg.stdout.match(
      /<title>type:WebApps\.kro\.run&#45;&gt;controller:ResourceGraph\(webapp\.kro\.run\)<\/title>/g,
    );
    expect(edges).toHaveLength(1);
    const edge =
      svg.stdout.split('<title>type:WebApps.kro.run&#45;&gt;')[1]?.split('</g>')[0] ?? '';
    expect(edge.match(/<polygon /g)).toHaveLength(2);
    expect(svg.stdout).not.toContain(
      '<title>controller:ResourceGraph(webapp.kro.run)&#45;&gt;type:WebApps.kro.run</title>',
    );
  });

  it('explain --field traces an output field to the RGD template line and expression', async () => {
    const field = async (resource: string, path: string) => {
      const r = await cli(['explain', resource, '-f', 'fixtures/kro-webapp', '--field', path]);
      expect(r.code).toBe(0);
      return r.stdout.split('\n').filter((l) => l.startsWith('  /'));
    };
    const by = 'v1 ResourceGraph(webapp.kro.run) reconcile #2';
    expect(await field('deployment/shop', 'spec.replicas')).toEqual([
      `  /spec/replicas  ${by}  template fixtures/kro-webapp/rgd.yaml:29:21 \${schema.spec.replicas}`,
    ]);
    // A list the template writes out: its line, and the expressions inside it.
    expect(await field('deployment/shop', 'spec.template.spec.containers')).toEqual([
      `  /spec/template/spec/containers  ${by}  template fixtures/kro-webapp/rgd.yaml:39:17 \${schema.spec.image} \${schema.spec.port}`,
    ]);
    // The labels kro's controller adds come from no template line.
    expect(await field('deployment/shop', 'metadata.labels')).toEqual([
      `  /metadata/labels/app                            ${by}  template fixtures/kro-webapp/rgd.yaml:27:18 \${schema.spec.name}`,
      `  /metadata/labels/app.kubernetes.io~1managed-by  ${by}`,
      `  /metadata/labels/kro.run~1instance-group        ${by}`,
      `  /metadata/labels/kro.run~1instance-id           ${by}`,
      `  /metadata/labels/kro.run~1instance-kind         ${by}`,
      `  /metadata/labels/kro.run~1instance-name         ${by}`,
      `  /metadata/labels/kro.run~1instance-namespace    ${by}`,
      `  /metadata/labels/kro.run~1instance-version      ${by}`,
      `  /metadata/labels/kro.run~1kro-version           ${by}`,
      `  /metadata/labels/kro.run~1node-id               ${by}`,
      `  /metadata/labels/kro.run~1owned                 ${by}`,
    ]);
    // The instance's status: the status expression's line; state and conditions are kro's own.
    // Named as the Kubernetes document has them (the instance's `status`, not cosi's spec's).
    expect(await field('webapp/shop', '/status')).toEqual([
      '  /status/conditions      v3 ResourceGraph(webapp.kro.run) reconcile #2',
      '  /status/deploymentName  v3 ResourceGraph(webapp.kro.run) reconcile #2  template fixtures/kro-webapp/rgd.yaml:17:23 ${deployment.metadata.name}',
      '  /status/state           v3 ResourceGraph(webapp.kro.run) reconcile #2',
    ]);
    const json = await cli([
      'explain',
      'service/shop-svc',
      '-f',
      'fixtures/kro-webapp',
      '--field',
      'spec.selector.app',
      '-o',
      'json',
    ]);
    const explanation = JSON.parse(json.stdout) as { fields: { field: string; by: unknown }[] };
    expect(explanation.fields).toEqual([
      {
        field: '/spec/selector/app',
        version: 1,
        by: {
          kind: 'reconcile',
          controller: 'ResourceGraph(webapp.kro.run)',
          seq: 2,
          template: {
            location: 'fixtures/kro-webapp/rgd.yaml:51:18',
            expressions: ['schema.spec.name'],
          },
        },
      },
    ]);
    const missing = await cli([
      'explain',
      'deployment/shop',
      '-f',
      'fixtures/kro-webapp',
      '--field',
      'spec.replica',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'cosi: --field: Deployments.apps(default/shop) has no field "spec.replica"; its fields: /spec/progressDeadlineSeconds, /spec/replicas,',
    );
  });
  it('gives templates a uid derived from the instance, kro CEL (sortBy, two-variable macros), and byte-identical --stable output', async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: tags.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Tags
    spec:
      items: '[]string'
  resources:
    - id: config
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.metadata.name}-tags
        data:
          uid: \${schema.metadata.uid}
          generation: \${string(schema.metadata.generation)}
          sorted: \${schema.spec.items.sortBy(t, t).join(",")}
          second: \${string(schema.spec.items.exists(i, t, i == 1 && t == "b"))}
---
apiVersion: kro.run/v1alpha1
kind: Tags
metadata:
  name: one
spec:
  items: [c, b, a]
---
apiVersion: kro.run/v1alpha1
kind: Tags
metadata:
  name: two
spec:
  items: [a, b]
`,
    });
    const first = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    const again = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(first.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    const data = (name: string) =>
      docs(first.stdout).find((d) => d.kind === 'ConfigMap' && d.metadata.name === name)?.data;
    const one = data('one-tags');
    const two = data('two-tags');
    expect(one).toMatchObject({ sorted: 'a,b,c', second: 'true', generation: '1' });
    expect(two).toMatchObject({ sorted: 'a,b', second: 'true' });
    // A uid as the API server gives one, derived from the instance: the same on every run, and
    // different for another instance.
    expect(one?.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(two?.uid).not.toBe(one?.uid);
  });
});
