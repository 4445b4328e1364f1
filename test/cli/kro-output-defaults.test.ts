/**
 * What an RGD renders is stored as the API server stores it: with its kind's defaults, as a
 * manifest of that kind is (kro reads the object back, so expressions see the defaults).
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryTree } from '../support/temporary-directory.js';
import { cli, REPO } from './run-cli.js';

const GATEWAY_CRDS = path.join(REPO, 'fixtures/real-crds/gateway-api/crds');

const tree = (files: Record<string, string>): Promise<string> =>
  temporaryTree('cosi-kro-defaults-', files);

/** A Site renders an HTTPRoute (gateway-api's own CRD) whose parentRefs name a Gateway. */
const SITE = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: site.example }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Site
    spec:
      host: string | required=true
    status:
      parentKind: \${route.spec.parentRefs[0].kind}
  resources:
    - id: route
      readyWhen:
        - \${route.spec.parentRefs[0].group == "gateway.networking.k8s.io"}
      template:
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: { name: '\${schema.metadata.name}-route' }
        spec:
          parentRefs: [{ name: main }]
          hostnames: ['\${schema.spec.host}']
---
apiVersion: kro.run/v1alpha1
kind: Site
metadata: { name: blog }
spec: { host: blog.example.com }
`;

describe("RGD outputs get their kind's defaults", () => {
  it("a CRD kind's schema defaults fill the rendered object, and expressions read them", async () => {
    const dir = await tree({ 'site.yaml': SITE });
    const route = await cli([
      'get',
      'httproute',
      'blog-route',
      '-f',
      dir,
      '--definitions',
      GATEWAY_CRDS,
      '-o',
      'jsonpath={.spec.parentRefs}',
    ]);
    // gateway-api's CRD defaults group and kind of a parentRef, as the API server fills them.
    expect(JSON.parse(route.stdout)).toEqual([
      { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'main' },
    ]);
    const site = await cli([
      'get',
      'site',
      'blog',
      '-f',
      dir,
      '--definitions',
      GATEWAY_CRDS,
      '-o',
      'json',
    ]);
    // The status field that reads a defaulted field is there, and readyWhen on one holds.
    expect(JSON.parse(site.stdout)).toMatchObject({
      status: { state: 'ACTIVE', parentKind: 'Gateway' },
    });
    const check = await cli(['check', '-f', dir, '--definitions', GATEWAY_CRDS, '--strict']);
    expect(check.stdout).not.toContain('rgd-waiting');
    expect(check.code).toBe(0);
  });

  it("a nested instance gets its RGD's SimpleSchema defaults, and renders with them", async () => {
    const dir = await tree({
      'inner.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: app.example }
spec:
  schema:
    apiVersion: v1alpha1
    kind: App
    group: example.org
    spec:
      name: string | required=true
      tiers: '[]string | default=["web","db"]'
  resources:
    - id: perTier
      forEach:
        - tier: \${schema.spec.tiers}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: '\${schema.spec.name}-\${tier}' }
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
    });
    const configs = await cli(['get', 'configmap', '-f', dir, '-o', 'name']);
    expect(configs.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'configmap/o1-db',
      'configmap/o1-web',
    ]);
    const check = await cli(['check', '-f', dir, '--strict']);
    expect(check.stdout).not.toContain('rgd-waiting');
  });
  it("a built-in kind gets the API server's Go defaults, which explain names as its kind's", async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: svc.example }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Svc
    spec: { name: string }
    status:
      type: \${service.spec.type}
      proto: \${service.spec.ports[0].protocol}
      target: \${string(service.spec.ports[0].targetPort)}
      history: \${string(deploy.spec.revisionHistoryLimit)}
      strategy: \${deploy.spec.strategy.type}
      pull: \${deploy.spec.template.spec.containers[0].imagePullPolicy}
  resources:
    - id: service
      readyWhen: ['\${service.spec.type == "ClusterIP"}']
      template:
        apiVersion: v1
        kind: Service
        metadata: { name: '\${schema.spec.name}' }
        spec:
          selector: { app: x }
          ports: [{ port: 80 }]
    - id: deploy
      template:
        apiVersion: apps/v1
        kind: Deployment
        metadata: { name: '\${schema.spec.name}' }
        spec:
          selector: { matchLabels: { app: x } }
          template:
            metadata: { labels: { app: x } }
            spec:
              containers: [{ name: c, image: 'nginx:1.27' }]
`,
      'svc.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Svc\nmetadata: { name: s }\nspec: { name: s }\n',
    });
    const r = await cli(['get', 'svc.kro.run', 's', '-f', dir, '-o', 'json']);
    expect(r.code).toBe(0);
    // Before, each was silently left out, and the readyWhen waited for ever.
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: {
        state: 'ACTIVE',
        type: 'ClusterIP',
        proto: 'TCP',
        target: '80',
        history: '10',
        strategy: 'RollingUpdate',
        pull: 'IfNotPresent',
      },
    });
    expect(r.stderr).not.toContain('rgd-waiting');
    const explained = await cli(['explain', 'deployment/s', '-f', dir]);
    expect(explained.stdout).toMatch(
      /\/spec\/strategy\/type +v1 ResourceGraph\(svc\.example\) reconcile #\d+ +default of its kind \(the API server's\)/,
    );
    expect(explained.stdout).toMatch(
      /\/spec\/selector\/matchLabels\/app +v1 .* template \S+rgd\.yaml:/,
    );
  });
  it('an externalRef reads a built-in manifest as the API server stored it, with its Go defaults', async () => {
    const dir = await tree({
      'rgd.yaml': `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata: { name: reader.example }
spec:
  schema:
    apiVersion: v1alpha1
    kind: Reader
    spec: {}
    status:
      type: \${db.spec.type}
      protocol: \${db.spec.ports[0].protocol}
  resources:
    - id: db
      externalRef: { apiVersion: v1, kind: Service, metadata: { name: db } }
      readyWhen: ['\${db.spec.type == "ClusterIP"}']
`,
      'db.yaml':
        'apiVersion: v1\nkind: Service\nmetadata: { name: db }\nspec: { selector: { app: db }, ports: [{ port: 5432 }] }\n',
      'reader.yaml':
        'apiVersion: kro.run/v1alpha1\nkind: Reader\nmetadata: { name: r }\nspec: {}\n',
    });
    const r = await cli(['get', 'reader', 'r', '-f', dir, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: { state: 'ACTIVE', type: 'ClusterIP', protocol: 'TCP' },
    });
    // The manifest's object is not written by the read (still at its first version); it prints
    // with the same defaults, as kubectl get prints the stored object.
    const db = await cli(['get', 'service', 'db', '-f', dir, '-o', 'json']);
    expect(JSON.parse(db.stdout)).toMatchObject({
      metadata: { resourceVersion: '1' },
      spec: { type: 'ClusterIP' },
    });
  });
});
