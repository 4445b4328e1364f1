import { readFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { toDocument } from '../../../src/app/output-document.js';
import { createDefinition } from '../../../src/engine/resource/definition.js';
import { objectUid } from '../../../src/engine/resource/object-uid.js';
import { newResource } from '../../../src/engine/resource/resource.js';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests, type ManifestFile } from '../../../src/loaders/load-manifests.js';

const fixture = async (name: string): Promise<ManifestFile> => ({
  path: name,
  text: await readFile(new URL(`../../../fixtures/kubernetes/${name}`, import.meta.url), 'utf8'),
});

const where = (f: Finding) => [f.code, f.line, f.col, f.pointer];

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: clusterbackups.example.org
spec:
  group: example.org
  names: { plural: clusterbackups, kind: ClusterBackup }
  scope: Cluster
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
                keep: { type: integer, minimum: 1 }
`;

const backup = (body: string) => ({
  path: 'backup.yaml',
  text: `apiVersion: example.org/v1\nkind: ClusterBackup\n${body}`,
});

describe('Kubernetes-shaped manifests', () => {
  it('map apiVersion, kind and metadata onto cosi metadata, keeping the other fields as the spec', async () => {
    const { resources, findings } = loadManifests([
      await fixture('crds.yaml'),
      await fixture('certificates.yaml'),
    ]);
    expect(findings).toEqual([]);
    const web = resources.find((r) => r.resource.metadata.id === 'web')?.resource;
    expect(web?.metadata).toMatchObject({
      namespace: 'apps',
      type: 'Certificates.cert-manager.io',
      id: 'web',
      labels: { app: 'web' },
    });
    expect(web?.spec).toEqual({
      spec: {
        secretName: 'web-tls',
        dnsNames: ['web.example.org', 'www.example.org'],
        // Defaults of the schema, applied inside objects that are there.
        issuerRef: { name: 'letsencrypt', kind: 'Issuer' },
        privateKey: { algorithm: 'RSA' },
        duration: '2160h',
        isCA: false,
      },
    });
  });

  it('load both shapes in one tree, a cosi-shaped document of a CRD type checked as its Kubernetes document', async () => {
    const { resources, findings } = loadManifests([
      await fixture('crds.yaml'),
      await fixture('certificates.yaml'),
      await fixture('hosts.yaml'),
    ]);
    expect(findings).toEqual([]);
    expect(resources.map((r) => r.resource.metadata.type)).toEqual([
      'Certificates.cert-manager.io',
      'Certificates.cert-manager.io',
      'Hosts.example.org',
    ]);
    const bad = {
      path: 'bad.yaml',
      text: 'metadata:\n  type: cert\n  id: x\nspec:\n  spec:\n    issuerRef: { name: a }\n',
    };
    const result = loadManifests([await fixture('crds.yaml'), bad]);
    // No secretName (the CRD's required field), and nothing to certify (cert-manager's webhook).
    expect(result.findings.map((f) => [...where(f), f.rule])).toEqual([
      ['schema-violation', 6, 5, '/spec/spec', 'required'],
      ['schema-violation', 6, 5, '/spec/spec', 'cert-manager'],
    ]);
  });

  it('report schema violations and unknown fields at their node in the document', () => {
    const { findings } = loadManifests([
      { path: 'crd.yaml', text: CRD },
      backup('metadata:\n  name: b\nspec:\n  keep: 0\n  keap: 2\nstatus: {}\n'),
    ]);
    expect(findings.map((f) => [...where(f), f.rule])).toEqual([
      ['schema-violation', 6, 9, '/spec/keep', 'minimum'],
      ['schema-violation', 7, 3, '/spec/keap', 'unknown-field'],
      ['schema-violation', 8, 1, '/status', 'unknown-field'],
    ]);
  });

  it('report a mapping where a scalar belongs as its type alone, not its keys as unknown fields', () => {
    const { findings } = loadManifests([
      { path: 'crd.yaml', text: CRD },
      backup('metadata:\n  name: b\nspec:\n  keep: { count: 2 }\n'),
      {
        path: 'secret.yaml',
        text: 'apiVersion: v1\nkind: Secret\nmetadata: { name: s }\nstringData:\n  config: {BASE64_CONFIG}\n',
      },
    ]);
    expect(findings.map((f) => [f.code, f.file, f.rule, f.pointer])).toEqual([
      ['schema-violation', 'backup.yaml', 'type', '/spec/keep'],
      ['schema-violation', 'secret.yaml', 'type', '/stringData/config'],
    ]);
  });

  it('neither check nor keep the status of a kind with the status subresource, as the API server drops it', () => {
    const withStatus = CRD.replace(
      '      storage: true\n',
      '      storage: true\n      subresources: { status: {} }\n',
    ).replace(
      '                keep: { type: integer, minimum: 1 }\n',
      '                keep: { type: integer, minimum: 1 }\n' +
        '            status:\n              type: object\n              required: [ready]\n' +
        '              properties: { ready: { type: integer } }\n' +
        '          x-kubernetes-validations:\n' +
        "            - rule: '!has(self.status)'\n              message: status is never seen\n",
    );
    const { findings, resources } = loadManifests([
      { path: 'crd.yaml', text: withStatus },
      backup('metadata:\n  name: a\nspec:\n  keep: 1\nstatus: {}\n'),
      backup('metadata:\n  name: b\nspec:\n  keep: 1\nstatus:\n  ready: many\n  extra: 1\n'),
      backup('metadata:\n  name: c\nspec:\n  keep: 0\nstatus: {}\n'),
    ]);
    // The required, the type, the unknown field and the rule on the root all pass: no status.
    expect(findings.map((f) => [f.code, f.severity, f.line, f.pointer])).toEqual([
      ['schema-violation', 'error', 6, '/spec/keep'],
      ['ignored-status', 'warning', 8, '/status'],
    ]);
    expect(resources.map((r) => r.resource.spec)).toEqual([
      { spec: { keep: 1 } },
      { spec: { keep: 1 } },
    ]);
    // Without the subresource, status is the object's own: checked and kept.
    const plain = loadManifests([
      { path: 'crd.yaml', text: withStatus.replace('      subresources: { status: {} }\n', '') },
      backup('metadata:\n  name: b\nspec:\n  keep: 1\nstatus:\n  ready: 1\n'),
    ]);
    expect(plain.findings.map((f) => [f.code, f.pointer])).toEqual([['cel-violation', '']]);
  });

  it('skip a document whole under --skip-kinds and --ignore-unknown-kinds, its metadata too (kubeconform -skip)', () => {
    const kubelet = {
      path: 'kubelet.yaml',
      text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n',
    };
    const bare = { path: 'cm.yaml', text: 'apiVersion: v1\nkind: ConfigMap\ndata: { a: b }\n' };
    const badName = {
      path: 'cm2.yaml',
      text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: Up }\n',
    };
    for (const options of [{ ignoreUnknownKinds: true }, { skipKinds: ['KubeletConfiguration'] }]) {
      const skipped = loadManifests([kubelet], options);
      expect(skipped.findings.filter((f) => f.code !== 'empty-input')).toEqual([]);
      expect(skipped.documents.map((d) => d.status)).toEqual(['skipped']);
    }
    const known = loadManifests([bare, badName], { skipKinds: ['ConfigMap'] });
    expect(known.findings.filter((f) => f.code !== 'empty-input')).toEqual([]);
    expect(known.documents.map((d) => d.status)).toEqual(['skipped', 'skipped']);
    // Checked, the metadata is reported as before.
    expect(loadManifests([bare, badName]).findings.map((f) => [f.code, f.file])).toEqual([
      ['missing-field', 'cm.yaml'],
      ['schema-violation', 'cm2.yaml'],
    ]);
    // YAML kubectl cannot read fails a document of a skipped kind still, counted as invalid.
    const twice = {
      path: 'cm3.yaml',
      text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a, name: b }\n',
    };
    const broken = loadManifests([twice], { skipKinds: ['ConfigMap'] });
    expect(broken.findings.map((f) => f.code)).toEqual(['duplicate-key']);
    expect(broken.documents.map((d) => d.status)).toEqual(['invalid']);
  });

  it('say of an unknown kind no CRD could define what it is instead of naming a CRD to add', () => {
    const doc = (apiVersion: string, kind: string) => ({
      path: `${kind.toLowerCase()}.yaml`,
      text: `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: { name: x }\n`,
    });
    const { findings } = loadManifests([
      { path: 'crd.yaml', text: CRD },
      doc('admission.k8s.io/v1', 'AdmissionReview'),
      doc('networking.k8s.io/v1', 'Ingres'),
      doc('skaffold/v2beta22', 'Config'),
      doc('example.org', 'ClusterBackup'),
      doc('v1alpha1', 'WatchdogTimerConfig'),
      doc('$API_VERSION', 'SecretProviderClass'),
      doc('gateway.envoyproxy.io/v1alpha1', 'EnvoyGateway'),
    ]);
    const said = Object.fromEntries(findings.map((f) => [f.file, [f.rule, f.message]]));
    // A group left out, or Talos' machine configuration documents: the core group has v1 alone.
    expect(said['watchdogtimerconfig.yaml']).toEqual([
      'tool-kind',
      "apiVersion v1alpha1 names no Kubernetes API: an apiVersion without a group is the core group's, which has v1 alone: write the kind's group (GROUP/v1alpha1), or leave a tool's own file out (Talos' machine configuration documents are written so: --skip-kinds WatchdogTimerConfig, --ignore, or .cosiignore)",
    ]);
    // secrets-store-csi-driver's test data: a placeholder envsubst fills in.
    expect(said['secretproviderclass.yaml']?.[1]).toBe(
      'apiVersion $API_VERSION is a variable a script fills in (envsubst): check what it renders, as envsubst < FILE | cosi check -f -, or leave the file out (--ignore, or .cosiignore)',
    );
    // Envoy Gateway's own configuration, in a group of CRDs.
    expect(said['envoygateway.yaml']?.[0]).toBe('component-config');
    expect(said['envoygateway.yaml']?.[1]).toContain(
      'is a configuration file read by Envoy Gateway',
    );
    expect(said['admissionreview.yaml']).toEqual([
      'component-config',
      "AdmissionReview of admission.k8s.io/v1 is an admission webhook's request and response, not an object applied to a cluster: leave it out (--skip-kinds AdmissionReview, --ignore, or .cosiignore)",
    ]);
    expect(said['ingres.yaml']?.[1]).toMatch(
      /^Kubernetes 1\.\d+ has no kind Ingres in networking\.k8s\.io\/v1, and no CustomResourceDefinition can add one to its group networking\.k8s\.io \(did you mean kind Ingress of networking\.k8s\.io\/v1\?\)$/,
    );
    expect(said['config.yaml']?.[1]).toContain("a CRD's group has a dot, and skaffold has none");
    expect(said['clusterbackup.yaml']).toEqual([
      'invalid-api-version',
      'apiVersion example.org is a group without its version: write example.org/VERSION (its CustomResourceDefinition serves example.org/v1)',
    ]);
  });

  it("skip under --ignore-unknown-kinds only the kinds a CRD or a tool could define, not a typo of Kubernetes' own", () => {
    const doc = (apiVersion: string, kind: string) => ({
      path: `${kind.toLowerCase()}.yaml`,
      text: `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: { name: x }\n`,
    });
    const { findings, documents } = loadManifests(
      [
        { path: 'crd.yaml', text: CRD },
        doc('apps/v1', 'Deploymnet'),
        doc('v1', 'Configmap'),
        doc('networking.k8s.io/v1', 'Ingres'),
        doc('extensions/v1beta1', 'Deployment'),
        doc('example.org', 'ClusterBackup'),
        doc('example.org/v2', 'ClusterBackup'),
        // The CRD's kind in another case (review gate5 3): `no matches for kind`, a typo.
        { ...doc('example.org/v1', 'Clusterbackup'), path: 'lowercase.yaml' },
        doc('helm.toolkit.fluxcd.io/v2', 'HelmRelease'),
        doc('skaffold/v2beta22', 'Config'),
        doc('kubelet.config.k8s.io/v1beta1', 'KubeletConfiguration'),
      ],
      { ignoreUnknownKinds: true },
    );
    // Kubernetes' answers stay errors: no CRD anywhere makes these valid.
    expect(findings.map((f) => [f.file, f.rule])).toEqual([
      ['clusterbackup.yaml', 'invalid-api-version'],
      ['clusterbackup.yaml', 'kubernetes-kind'],
      ['configmap.yaml', 'kubernetes-kind'],
      ['deployment.yaml', 'removed-api'],
      ['deploymnet.yaml', 'builtin-kind'],
      ['ingres.yaml', 'builtin-kind'],
      ['lowercase.yaml', 'kubernetes-kind'],
    ]);
    expect(findings.find((f) => f.file === 'lowercase.yaml')?.message).toBe(
      'no CustomResourceDefinition defines kind Clusterbackup in example.org/v1: kinds are case-sensitive, and the one its group serves so is ClusterBackup: write kind: ClusterBackup',
    );
    expect(documents.filter((d) => d.status === 'skipped').map((d) => d.file)).toEqual([
      'helmrelease.yaml',
      'config.yaml',
      'kubeletconfiguration.yaml',
    ]);
  });

  it('read a null label or annotation value as the API server does, the empty string; a number is no string', () => {
    const { findings, resources } = loadManifests([
      {
        path: 'cm.yaml',
        text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    breakglass: null\n  annotations:\n    note:\n',
      },
      {
        path: 'bad.yaml',
        text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n  labels:\n    tier: 1\n',
      },
    ]);
    expect(findings.map((f) => [f.code, f.file, f.pointer])).toEqual([
      ['wrong-type', 'bad.yaml', '/metadata/labels/tier'],
    ]);
    expect(
      resources.map((r) => [r.resource.metadata.labels, r.resource.metadata.annotations]),
    ).toEqual([[{ breakglass: '' }, { note: '' }]]);
  });

  it("keep a null in a built-in object's map of strings as the API server stores it, the empty string; drop it in a custom resource's", () => {
    const { findings, resources } = loadManifests([
      {
        path: 'cm.yaml',
        text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\ndata:\n  a: "1"\n  empty: ~\nbinaryData: { none: ~ }\n',
      },
      {
        path: 'pod.yaml',
        text: 'apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  nodeSelector: { disk: ~ }\n  containers: [{ name: c, image: nginx }]\n',
      },
      {
        path: 'crd.yaml',
        text: CRD.replace(
          'keep: { type: integer, minimum: 1 }',
          'tags: { type: object, additionalProperties: { type: string } }',
        ),
      },
      backup('metadata: { name: b }\nspec: { tags: { a: x, gone: ~ } }\n'),
    ]);
    expect(findings).toEqual([]);
    const spec = (id: string) =>
      resources.find((r) => r.resource.metadata.id === id)?.resource.spec;
    expect(spec('c')).toEqual({ data: { a: '1', empty: '' }, binaryData: { none: '' } });
    expect(spec('p')).toMatchObject({ spec: { nodeSelector: { disk: '' } } });
    expect(spec('b')).toEqual({ spec: { tags: { a: 'x' } } });
  });

  it("keep a null in a built-in object's map of quantities as the API server stores it, the zero quantity", () => {
    const { findings, resources } = loadManifests([
      {
        path: 'pod.yaml',
        text: 'apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  overhead: { memory: ~ }\n  containers:\n    - name: c\n      image: nginx\n      resources: { limits: { cpu: ~, memory: 1Gi }, requests: { cpu: ~ } }\n',
      },
      {
        path: 'quota.yaml',
        text: 'apiVersion: v1\nkind: ResourceQuota\nmetadata: { name: q }\nspec: { hard: { pods: ~ } }\n',
      },
      {
        path: 'limits.yaml',
        text: 'apiVersion: v1\nkind: LimitRange\nmetadata: { name: l }\nspec:\n  limits: [{ type: Container, maxLimitRequestRatio: { cpu: ~ } }]\n',
      },
    ]);
    const spec = (id: string) =>
      resources.find((r) => r.resource.metadata.id === id)?.resource.spec;
    expect(spec('p')).toMatchObject({
      spec: {
        overhead: { memory: '0' },
        containers: [
          { resources: { limits: { cpu: '0', memory: '1Gi' }, requests: { cpu: '0' } } },
        ],
      },
    });
    expect(spec('q')).toEqual({ spec: { hard: { pods: '0' } } });
    // The zero quantity is checked as any: a ratio below 1 is refused, as the API server refuses it.
    expect(findings.map((f) => [f.file, f.code, f.pointer])).toEqual([
      ['limits.yaml', 'schema-violation', '/spec/limits/0/maxLimitRequestRatio/cpu'],
    ]);
  });

  it("report a kind nothing defines once, at its kind; a component's configuration file as one", () => {
    const { findings } = loadManifests([
      {
        path: 'kubelet.yaml',
        text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
      },
      { path: 'audit.yaml', text: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n' },
      { path: 'kubeconfig.yaml', text: 'apiVersion: v1\nkind: Config\nclusters: []\n' },
      { path: 'widget.yaml', text: 'apiVersion: example.org/v1\nkind: Widget\n' },
    ]);
    expect(findings.map((f) => [f.file, f.code, f.rule, f.pointer])).toEqual([
      ['audit.yaml', 'unknown-type', 'component-config', '/kind'],
      ['kubeconfig.yaml', 'unknown-type', 'component-config', '/kind'],
      ['kubelet.yaml', 'unknown-type', 'component-config', '/kind'],
      ['widget.yaml', 'unknown-type', 'missing-crd', '/kind'],
    ]);
    expect(findings[2]?.message).toBe(
      'KubeletConfiguration of kubelet.config.k8s.io/v1beta1 is a configuration file read by the kubelet, not an object applied to a cluster: leave it out (--skip-kinds KubeletConfiguration, --ignore, or .cosiignore)',
    );
    expect(findings[1]?.message).toContain('read by kubectl (a kubeconfig)');
  });

  it('require metadata.name, and warn of a namespace on a cluster-scoped kind, which the API server clears', () => {
    const { findings, resources } = loadManifests([
      { path: 'crd.yaml', text: CRD },
      backup('metadata:\n  namespace: apps\n'),
      backup('metadata:\n  name: b\n  namespace: apps\n'),
    ]);
    expect(findings.map((f) => [f.code, f.severity, f.file, f.pointer])).toEqual([
      ['missing-field', 'error', 'backup.yaml', '/metadata/name'],
      ['ignored-namespace', 'warning', 'backup.yaml', '/metadata/namespace'],
      ['ignored-namespace', 'warning', 'backup.yaml', '/metadata/namespace'],
    ]);
    // Loaded as the cluster stores it: the same name in two namespaces is one object.
    expect(resources.map((r) => r.resource.metadata.namespace)).toEqual(['default']);
    const twice = loadManifests([
      { path: 'crd.yaml', text: CRD },
      backup('metadata:\n  name: b\n  namespace: apps\n'),
      backup('metadata:\n  name: b\n  namespace: web\n'),
    ]);
    expect(twice.findings.map((f) => f.code).sort()).toEqual([
      'duplicate-resource',
      'ignored-namespace',
      'ignored-namespace',
    ]);
    // Named without the namespace it does not have.
    expect(twice.findings.find((f) => f.code === 'duplicate-resource')?.message).toMatch(
      /^ClusterBackups\.example\.org\(b\) is already defined at backup\.yaml:4:9/,
    );
  });

  it('accept and ignore what the API server sets, as kubectl get -o yaml prints it', () => {
    const { resources, findings } = loadManifests([
      { path: 'crd.yaml', text: CRD },
      backup(
        'metadata:\n  name: b\n  uid: 7c2\n  resourceVersion: "12"\n  creationTimestamp: 2025-01-01T00:00:00Z\n',
      ),
    ]);
    expect(findings).toEqual([]);
    expect(resources[0]?.resource.metadata.version).toBe(0);
  });

  it('refuse a document cosi printed for a controller, by its owner annotation', () => {
    const { findings } = loadManifests([
      { path: 'crd.yaml', text: CRD },
      backup('metadata:\n  name: b\n  annotations:\n    cosi.dev/owner: backups\n'),
    ]);
    expect(findings.map((f) => [f.code, f.pointer])).toEqual([
      ['controller-output', '/metadata/annotations/cosi.dev~1owner'],
    ]);
  });

  it('print a resource of a CRD type in its Kubernetes shape, which loads back as the same resource', async () => {
    const crds = await fixture('crds.yaml');
    const first = loadManifests([crds, await fixture('certificates.yaml')]);
    const web = first.resources.find((r) => r.resource.metadata.id === 'web');
    if (web === undefined) throw new Error('web not loaded');
    const printed = toDocument(web.resource, web.definition, { stable: true });
    expect(Object.keys(printed)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(printed).toMatchObject({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'web', namespace: 'apps', labels: { app: 'web' }, resourceVersion: '0' },
    });
    const again = loadManifests([crds, { path: 'out.yaml', text: stringify(printed) }]);
    expect(again.findings).toEqual([]);
    expect(again.resources[0]?.resource).toEqual(web.resource);
  });

  it('print a cluster-scoped kind without a namespace, and the owner as an annotation', () => {
    const { definitions } = loadManifests([{ path: 'crd.yaml', text: CRD }]);
    const resource = newResource(
      { namespace: 'default', type: 'ClusterBackups.example.org', id: 'b' },
      { spec: { keep: 1 } },
    );
    resource.metadata.owner = 'backup-controller';
    const printed = toDocument(resource, definitions[0], { stable: true });
    expect(printed.metadata).toEqual({
      name: 'b',
      annotations: { 'cosi.dev/owner': 'backup-controller' },
      resourceVersion: '0',
      creationTimestamp: '2025-01-01T00:00:00Z',
      // Of the kind and name only: not of the namespace cosi keeps a cluster-scoped object in.
      uid: objectUid('ClusterBackups.example.org', undefined, 'b'),
    });
    expect(printed.spec).toEqual({ keep: 1 });
    // Unpinned, to the second as the API server writes a metav1.Time, not cosi's milliseconds.
    const live = toDocument(
      { ...resource, metadata: { ...resource.metadata, created: 1_767_323_045_678 } },
      definitions[0],
    ) as { metadata: Record<string, unknown> };
    expect(live.metadata.creationTimestamp).toBe('2026-01-02T03:04:05Z');
  });

  it('say a typo of a core kind as one first, defining the kind second (review firsthour 6)', () => {
    const typo = loadManifests([
      { path: 'cm.yaml', text: 'apiVersion: v1\nkind: ConfigMapp\nmetadata:\n  name: x\n' },
    ]);
    expect(typo.findings.map((f) => f.message)).toEqual([
      "Kubernetes 1.36 has no kind ConfigMapp in the core group (v1): did you mean kind ConfigMap of v1? (a kind of the project's own: define ConfigMapps.core in the config with kubernetes: { apiVersion: 'v1', kind: 'ConfigMapp', namespaced: true })",
    ]);
  });

  it('resolve the core group from a config definition with a Kubernetes identity, and say so when there is none', () => {
    const configMap = {
      path: 'cm.yaml',
      text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n',
    };
    const none = loadManifests([configMap], { kubernetesVersion: null });
    expect(none.findings.map((f) => [f.code, f.rule, f.pointer])).toEqual([
      ['unknown-type', 'kubernetes-kind', '/kind'],
    ]);
    expect(none.findings[0]?.message).toContain('define ConfigMaps.core in the config');
    const definitions = [
      createDefinition({
        type: 'ConfigMaps.core',
        kubernetes: { apiVersion: 'v1', kind: 'ConfigMap', namespaced: true },
      }),
    ];
    const { resources, findings } = loadManifests([configMap], { definitions });
    expect(findings).toEqual([]);
    expect(resources[0]?.resource.spec).toEqual({ data: { mode: 'fast' } });
  });

  it('read each item of a kind: List as a document, CRDs included, with findings inside the list', () => {
    const crd = `${CRD.trimEnd().replace(/^/gm, '    ').replace(/^ {4}/, '  - ')}\n`;
    const list = `apiVersion: v1
kind: List
items:
${crd}  - apiVersion: example.org/v1
    kind: ClusterBackup
    metadata: { name: good }
    spec: { keep: 2 }
  - apiVersion: example.org/v1
    kind: ClusterBackup
    metadata: { name: bad }
    spec: { keep: 0 }
  - 7
`;
    const { resources, findings } = loadManifests([{ path: 'list.yaml', text: list }]);
    expect(findings.map(where)).toEqual([
      ['schema-violation', 31, 19, '/items/2/spec/keep'],
      ['not-a-mapping', 32, 5, '/items/3'],
    ]);
    expect(resources.map((r) => [r.resource.metadata.id, r.source.line, r.source.col])).toEqual([
      ['good', 24, 5],
    ]);
  });

  it("give the items of a typed list (ClusterBackupList) that name no type the list's apiVersion and kind, as kubectl does", () => {
    const list = `apiVersion: example.org/v1
kind: ClusterBackupList
items:
  - metadata: { name: typed }
    spec: { keep: 2 }
  - metadata: { name: bad }
    spec: { keep: 0 }
  - kind: ClusterBackup
    metadata: { name: half }
`;
    const { resources, findings } = loadManifests([
      { path: 'crd.yaml', text: CRD },
      { path: 'list.yaml', text: list },
    ]);
    expect(resources.map((r) => [r.resource.metadata.type, r.resource.metadata.id])).toEqual([
      ['ClusterBackups.example.org', 'typed'],
    ]);
    // The bad item is checked as a ClusterBackup; one that names its kind keeps what it wrote.
    expect(findings.map((f) => [f.code, f.pointer])).toEqual([
      ['schema-violation', '/items/1/spec/keep'],
      ['missing-field', '/items/2/apiVersion'],
    ]);
  });

  it('say of a List without a list of items, or a List in a List, that kubectl applies one List deep', () => {
    const { findings } = loadManifests([
      {
        path: 'lists.yaml',
        text: 'apiVersion: v1\nkind: List\n---\napiVersion: v1\nkind: List\nitems: x\n---\napiVersion: v1\nkind: List\nitems:\n  - { apiVersion: v1, kind: List, items: [] }\n',
      },
    ]);
    expect(findings.map((f) => [f.line, f.pointer, f.rule])).toEqual([
      [2, '/kind', 'kubernetes-kind'],
      [5, '/kind', 'kubernetes-kind'],
      [11, '/items/0/kind', 'kubernetes-kind'],
    ]);
    for (const finding of findings) {
      expect(finding.message).toMatch(
        /^a List is no object to apply: kubectl applies the objects of a List's items/,
      );
      expect(finding.message).not.toContain('in the config');
    }
  });

  it("report a resource defined twice at the second one's name", () => {
    const { findings } = loadManifests([
      { path: 'crd.yaml', text: CRD },
      backup('metadata:\n  name: b\n'),
      { ...backup('metadata:\n  name: b\n'), path: 'again.yaml' },
    ]);
    expect(findings.map((f) => [f.code, f.file, f.line, f.col, f.pointer])).toEqual([
      ['duplicate-resource', 'again.yaml', 4, 9, '/metadata/name'],
    ]);
  });

  it('report one object written in two API versions as a duplicate, and keep the first, as the API server stores one', () => {
    const hpa = (apiVersion: string) =>
      `apiVersion: ${apiVersion}\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n`;
    const widgets = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1alpha1, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`;
    const widget = (version: string) =>
      `apiVersion: example.com/${version}\nkind: Widget\nmetadata: {name: w}\n`;
    const { findings, resources } = loadManifests([
      { path: 'hpa.yaml', text: `${hpa('autoscaling/v1')}---\n${hpa('autoscaling/v2')}` },
      { path: 'crd.yaml', text: widgets },
      { path: 'widget.yaml', text: `${widget('v1alpha1')}---\n${widget('v1')}` },
    ]);
    expect(findings.map((f) => [f.code, f.file, f.line, f.pointer])).toEqual([
      ['duplicate-resource', 'hpa.yaml', 10, '/metadata/name'],
      ['duplicate-resource', 'widget.yaml', 7, '/metadata/name'],
    ]);
    expect(findings[0]?.message).toMatch(
      /^HorizontalPodAutoscalers\.autoscaling\(default\/web\) is already defined at hpa\.yaml:3:18 as autoscaling\/v1 /,
    );
    expect(findings[1]?.message).toMatch(
      /^Widgets\.example\.com\(default\/w\) is already defined at widget\.yaml:3:18 as example\.com\/v1alpha1 /,
    );
    expect(resources.map((r) => r.resource.metadata.type)).toEqual([
      'HorizontalPodAutoscalers.v1.autoscaling',
      'Widgets.v1alpha1.example.com',
    ]);
  });

  describe('metadata.generateName', () => {
    const generated = `metadata: { generateName: nightly- }
spec: { keep: 2 }
---
metadata: { generateName: nightly- }
spec: { keep: 3 }
`;

    it('names a document without a name: the prefix and five characters of the API server alphabet', () => {
      const { resources, findings } = loadManifests([
        { path: 'crd.yaml', text: CRD },
        backup(
          generated.replaceAll('---\n', '---\napiVersion: example.org/v1\nkind: ClusterBackup\n'),
        ),
      ]);
      expect(findings).toEqual([]);
      const ids = resources.map((r) => r.resource.metadata.id);
      expect(ids).toHaveLength(2);
      for (const id of ids) expect(id).toMatch(/^nightly-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      // Two documents with one generateName are two resources.
      expect(new Set(ids).size).toBe(2);
    });

    it('gives the same id to the same document on every load, so a previous revision matches', () => {
      const ids = () =>
        loadManifests([
          { path: 'crd.yaml', text: CRD },
          backup(generated.split('---\n')[0]!),
        ]).resources.map((r) => r.resource.metadata.id);
      expect(ids()).toEqual(ids());
      expect(ids()).toHaveLength(1);
    });

    it('leaves the name to metadata.name when both are given, as the API server does', () => {
      const { resources } = loadManifests([
        { path: 'crd.yaml', text: CRD },
        backup('metadata: { name: weekly, generateName: nightly- }\nspec: { keep: 1 }\n'),
      ]);
      expect(resources.map((r) => r.resource.metadata.id)).toEqual(['weekly']);
    });

    it('still requires a name or a generateName', () => {
      const { findings } = loadManifests([
        { path: 'crd.yaml', text: CRD },
        backup('metadata: { labels: { a: b } }\nspec: { keep: 1 }\n'),
      ]);
      expect(findings.map(where)).toContainEqual(['missing-field', 3, 11, '/metadata/name']);
      expect(findings.find((f) => f.code === 'missing-field')?.message).toBe(
        'metadata.name (or metadata.generateName) is required',
      );
    });
  });
});
