/**
 * kro watches an RGD's instances in every namespace: an instance that appears in a namespace no
 * instance of the manifests was in (a nested instance an outer RGD writes there, a test's apply)
 * is rendered as the others are.
 */
import { describe, expect, it } from 'vitest';
import { temporaryTree } from '../support/temporary-directory.js';
import { cli } from './run-cli.js';

const tree = (files: Record<string, string>): Promise<string> =>
  temporaryTree('cosi-kro-ns-', files);

/** An RGD of one ConfigMap per instance, its status the ConfigMap's name. */
const INNER = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: app.example }
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    group: example.org
    spec:
      name: string | required=true
    status:
      configName: \${cm.metadata.name}
  resources:
    - id: cm
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}-cfg' }
        data: { name: '\${schema.spec.name}' }
`;

/** An RGD whose instance writes an App into the namespace its spec names. */
const OUTER = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: outer.example }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Outer
    group: example.org
    spec:
      ns: string | required=true
    status:
      innerState: \${inner.status.state}
  resources:
    - id: inner
      template:
        apiVersion: example.org/v1alpha1
        kind: App
        metadata:
          name: '\${schema.metadata.name}-inner'
          namespace: \${schema.spec.ns}
        spec:
          name: \${schema.metadata.name}
`;

describe('RGD instances in a namespace that appears during the run', () => {
  it('a nested instance an outer RGD writes into another namespace is rendered, and the outer reads its state', async () => {
    const dir = await tree({
      'inner.yaml': INNER,
      'outer.yaml': `${OUTER}---
apiVersion: example.org/v1alpha1
kind: Outer
metadata: { name: o1 }
spec: { ns: elsewhere }
`,
    });
    const check = await cli(['check', '-f', dir, '--strict']);
    expect(check.stdout).not.toContain('warning');
    expect(check.code).toBe(0);
    const configs = await cli(['get', 'configmap', '-n', 'elsewhere', '-f', dir, '-o', 'name']);
    expect(configs.stdout.trim()).toBe('configmap/o1-cfg');
    const inner = await cli(['get', 'app', 'o1-inner', '-n', 'elsewhere', '-f', dir, '-o', 'json']);
    expect(JSON.parse(inner.stdout)).toMatchObject({
      status: { state: 'ACTIVE', configName: 'o1-cfg' },
    });
    const outer = await cli(['get', 'outer', 'o1', '-f', dir, '-o', 'json']);
    expect(JSON.parse(outer.stdout)).toMatchObject({
      status: { state: 'ACTIVE', innerState: 'ACTIVE' },
    });
  });

  it('a scenario step that applies an instance in a new namespace sees it rendered', async () => {
    const dir = await tree({
      'inner.yaml': `${INNER}---
apiVersion: example.org/v1alpha1
kind: App
metadata: { name: first }
spec: { name: first }
`,
      'team.cosi-test.yaml': `name: an App in team-d
manifests: [inner.yaml]
steps:
  - apply:
      apiVersion: example.org/v1alpha1
      kind: App
      metadata: { name: second, namespace: team-d }
      spec: { name: second }
  - expect:
      apiVersion: v1
      kind: ConfigMap
      metadata: { name: second-cfg, namespace: team-d }
      data: { name: second }
  - expect:
      apiVersion: example.org/v1alpha1
      kind: App
      metadata: { name: second, namespace: team-d }
      status: { state: ACTIVE, configName: second-cfg }
  - name: from a file, which knows the kinds the manifests define
    apply: third.yaml
  - expect: { apiVersion: v1, kind: ConfigMap, metadata: { name: third-cfg, namespace: team-e } }
`,
      'third.yaml': `apiVersion: example.org/v1alpha1
kind: App
metadata: { name: third, namespace: team-e }
spec: { name: third }
`,
    });
    const r = await cli(['test', dir]);
    expect(r.stdout).toContain('5 passed, 0 failed');
    expect(r.code).toBe(0);
  });
});

describe('an empty metadata.namespace in a template or an externalRef', () => {
  it("is the instance's namespace, as kro's normalizeNamespaces fills it", async () => {
    // kro's docs (examples/basic/optionals.md) write an externalRef with `namespace: ""`: cosi
    // looked for the Secret in the namespace "" and waited forever, and wrote a template's
    // ConfigMap with `namespace: ""` into no namespace at all.
    const dir = await tree({
      'rgd.yaml': `apiVersion: v1
kind: Namespace
metadata: { name: team }
---
apiVersion: v1
kind: Secret
metadata: { name: test, namespace: team }
stringData: { uri: api.test.com }
---
apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: empty-ns.kro.run }
spec:
  schema:
    apiVersion: v1alpha1
    kind: EmptyNs
    spec: {}
    status:
      uri: \${string(test.data.uri)}
  resources:
    - id: test
      externalRef:
        apiVersion: v1
        kind: Secret
        metadata:
          name: test
          namespace: ""
    - id: out
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: out
          namespace: ""
        data:
          uri: \${string(test.data.uri)}
---
apiVersion: kro.run/v1alpha1
kind: EmptyNs
metadata: { name: e1, namespace: team }
spec: {}
`,
    });
    const r = await cli(['apply', '-f', dir, '-o', 'json', '--stable']);
    expect(r.code).toBe(0);
    const docs = (
      JSON.parse(r.stdout) as {
        items: {
          kind: string;
          metadata: { name: string; namespace?: string };
          status?: Record<string, unknown>;
        }[];
      }
    ).items;
    const out = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'out');
    expect(out?.metadata.namespace).toBe('team');
    expect(docs.find((d) => d.kind === 'EmptyNs')?.status).toMatchObject({
      state: 'ACTIVE',
      uri: 'api.test.com',
    });
  });
});
