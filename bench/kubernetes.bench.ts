/**
 * Kubernetes repositories (issue 29, point 6): a tree of plain Kubernetes manifests (Deployments,
 * Services, ConfigMaps, Ingresses, built-in kinds) with a CRD kind whose schema has CEL rules,
 * loaded and checked by cosi against the bare `yaml` parse (and `toJS`) of the same files, at
 * several sizes with the growth; then one document checked against a bundle of real CRDs given
 * with `--definitions`, a whole `cosi check` process against a process that only walks and parses
 * the same files. Targets: the repository within 2x of the parse at 10k documents; the one
 * document under 0.5 s end to end (the bundle's unused CRDs cost their reading only). The
 * processes' CPU time is printed beside their wall time (on Linux): on a loaded machine, wall
 * time measures the load. Then documents whose kinds only JSON Schemas of CRDs-catalog define
 * (`--schema-location`), loaded against their bare parse at the same sizes; and real CRDs
 * checked as manifests, 1, 2 and 4 copies, against their walk and parse; and one large CRD that
 * repeats a container schema 25, 50 and 100 times (as Argo Workflows' does), against its walk and
 * parse. `--quick`: the repositories at 1k and 2k documents only, the large CRD at 25 and 50.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type * as Loaders from '../src/loaders/index.js';
import { openSpecCrd } from '../test/support/open-crd.js';
import { compare, quick } from './harness.js';

const SIZES = quick ? [1_000, 2_000] : [1_000, 5_000, 10_000];
/** Applications of the kustomize-and-Helm repository (six files each). */
const WALK_SIZES = quick ? [200, 400] : [200, 1_000, 5_000];
const CRD_BUNDLE = ['fixtures/real-crds/cert-manager/crds', 'fixtures/real-crds/gateway-api/crds'];
const PROCESS_RUNS = 3;

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.org }
spec:
  group: example.org
  names: { plural: widgets, kind: Widget }
  scope: Namespaced
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
              x-kubernetes-validations:
                - rule: self.minReplicas <= self.maxReplicas
                  message: minReplicas must not exceed maxReplicas
              properties:
                minReplicas: { type: integer, minimum: 0 }
                maxReplicas: { type: integer, maximum: 100 }
                image: { type: string, maxLength: 200, x-kubernetes-validations: [{ rule: "self.contains(':')" }] }
`;

/** Application `i`: a ConfigMap, a Deployment, a Service, an Ingress and a Widget (5 documents). */
function app(i: number): string {
  const name = `app-${i}`;
  return `apiVersion: v1
kind: ConfigMap
metadata: { name: ${name}, namespace: team-${i % 20} }
data: { LOG_LEVEL: info, INDEX: "${i}" }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: team-${i % 20}, labels: { app: ${name} } }
spec:
  replicas: ${(i % 3) + 1}
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers:
        - name: main
          image: registry.example.org/${name}:1.${i % 10}
          ports: [{ name: http, containerPort: 8080 }]
          envFrom: [{ configMapRef: { name: ${name} } }]
          resources: { requests: { cpu: 100m, memory: 128Mi }, limits: { memory: 256Mi } }
          readinessProbe: { httpGet: { path: /ready, port: http }, periodSeconds: 5 }
---
apiVersion: v1
kind: Service
metadata: { name: ${name}, namespace: team-${i % 20} }
spec:
  selector: { app: ${name} }
  ports: [{ name: http, port: 80, targetPort: http }]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: { name: ${name}, namespace: team-${i % 20} }
spec:
  rules:
    - host: ${name}.example.org
      http:
        paths:
          - path: /
            pathType: Prefix
            backend: { service: { name: ${name}, port: { name: http } } }
---
apiVersion: example.org/v1
kind: Widget
metadata: { name: ${name}, namespace: team-${i % 20} }
spec: { minReplicas: 1, maxReplicas: ${(i % 5) + 2}, image: "w:${i}" }
`;
}

/** A repository of `documents` documents: one file per application, and the Widget CRD. */
function repository(documents: number): { path: string; text: string }[] {
  const files = [{ path: 'crds/widgets.yaml', text: WIDGET_CRD }];
  for (let i = 0; i < documents / 5; i++) files.push({ path: `apps/app-${i}.yaml`, text: app(i) });
  return files;
}

/**
 * Kyverno policy `i`: an API call in its context, preconditions on the operation, a variable
 * inside another, a foreach over the call's result (nine variables, each parsed and checked).
 */
function kyvernoPolicy(i: number): string {
  return `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: { name: replicas-${i} }
spec:
  background: false
  rules:
    - name: check-${i}
      match: { any: [{ resources: { kinds: [PodDisruptionBudget] } }] }
      context:
        - name: deployments
          apiCall:
            urlPath: "/apis/apps/v1/namespaces/{{ request.namespace }}/deployments"
            jmesPath: "items[?label_match(\`{{ request.object.spec.selector.matchLabels }}\`, spec.template.metadata.labels)] || \`[]\`"
      preconditions:
        all:
          - { key: "{{ request.operation }}", operator: AnyIn, value: [CREATE, UPDATE] }
          - key: "{{ regex_match('^[0-9]+$', '{{ request.object.spec.minAvailable || '' }}') }}"
            operator: Equals
            value: true
      validate:
        message: "minAvailable {{ request.object.spec.minAvailable }} of {{ request.userInfo.username }} exceeds {{ deployments[*].spec.replicas | max(@) }}"
        foreach:
          - list: deployments
            deny:
              conditions:
                all: [{ key: "{{ request.object.spec.minAvailable }}", operator: GreaterThanOrEquals, value: "{{ element.spec.replicas }}" }]
`;
}

/** `documents` Kyverno policies, ten to a file, and the ClusterPolicy CRD. */
function kyvernoPolicies(documents: number): { path: string; text: string }[] {
  const files = [
    {
      path: 'crds/kyverno.yaml',
      text: openSpecCrd('kyverno.io', 'ClusterPolicy', 'clusterpolicies', 'Cluster', 'v1'),
    },
  ];
  for (let i = 0; i < documents; i += 10) {
    const policies = Array.from({ length: 10 }, (_, j) => kyvernoPolicy(i + j));
    files.push({ path: `policies/p-${i}.yaml`, text: policies.join('---\n') });
  }
  return files;
}

export async function run(): Promise<void> {
  const url = new URL('../dist/loaders/index.js', import.meta.url).href;
  const loaders = (await import(url)) as typeof Loaders;
  const lines = await loadAgainstParse(
    loaders,
    'a Kubernetes repository (built-in kinds, a CRD kind with CEL rules): load + check vs the bare parse',
    repository,
    () => ({}),
  );

  lines.push(
    ...(await loadAgainstParse(
      loaders,
      'Kyverno ClusterPolicies with variables (their JMESPath and names checked as Kyverno checks them): load + check vs the bare parse',
      kyvernoPolicies,
      () => ({}),
    )),
  );
  lines.push(...(await walkRepositories(loaders)));
  lines.push(...(await catalogKinds(loaders)));
  lines.push(...(await eachWorld()));
  lines.push(...(await crdsAsManifests()));
  lines.push(...(await repeatedSubschemas()));

  const bundle = CRD_BUNDLE.filter((dir) => existsSync(dir));
  if (bundle.length > 0) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-k8s-bench-'));
    try {
      await writeFile(
        path.join(dir, 'certificate.yaml'),
        'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: { name: web, namespace: apps }\nspec:\n  secretName: web-tls\n  dnsNames: [web.example.org]\n  issuerRef: { name: letsencrypt, kind: ClusterIssuer }\n',
      );
      const definitions = bundle.flatMap((d) => ['--definitions', d]);
      const cosiRuns: ProcessTime[] = [];
      const parseRuns: ProcessTime[] = [];
      for (let i = 0; i < PROCESS_RUNS; i++) {
        const parse = { wall: 0, cpu: 0 };
        for (const d of bundle) {
          const one = await timeNode([path.join('bench', 'walk-and-parse.mjs'), d]);
          parse.wall += one.wall;
          parse.cpu += one.cpu;
        }
        parseRuns.push(parse);
        cosiRuns.push(await timeNode(['bin/cosi.js', 'check', ...definitions, '-f', dir, '-q']));
      }
      const cosiMs = median(cosiRuns.map((r) => r.wall));
      const parseMs = median(parseRuns.map((r) => r.wall));
      const cosiCpu = median(cosiRuns.map((r) => r.cpu));
      const parseCpu = median(parseRuns.map((r) => r.cpu));
      lines.push(
        `one Certificate against the CRDs of ${bundle.join(', ')} (--definitions), whole processes, medians of ${PROCESS_RUNS}`,
        '',
        `  cosi check ${cosiMs.toFixed(0)} ms; walk + parse of the CRD files ${parseMs.toFixed(0)} ms; ratio ${(cosiMs / parseMs).toFixed(2)}x (target: under 500 ms)`,
        ...(Number.isNaN(cosiCpu)
          ? []
          : [
              `  CPU time: cosi check ${cosiCpu.toFixed(0)} ms; walk + parse ${parseCpu.toFixed(0)} ms; ratio ${(cosiCpu / parseCpu).toFixed(2)}x`,
            ]),
        '',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Real CRD files, checked as manifests (their schemas compiled, their CEL rules too). */
const REAL_CRDS = [
  'fixtures/real-crds/cert-manager/crds',
  'fixtures/real-crds/gateway-api/crds',
  'fixtures/real-crds/traefik/kubernetes-crd-definition-v1.yml',
];
/** Each copy's groups: the copies past the first rename them, so that each is a CRD of its own. */
const REAL_CRD_GROUPS = /\b(cert-manager\.io|gateway\.networking\.(?:x-)?k8s\.io|traefik\.io)\b/g;

/**
 * Real CRDs (cert-manager's, Gateway API's, Traefik's) checked as a repository's manifests, with
 * a Certificate of each copy: 1, 2 and 4 copies, groups renamed past the first, a whole `cosi
 * check` process against a process that walks and parses the same files. Copies repeat rules
 * and patterns, as the versions of one CRD do.
 */
async function crdsAsManifests(): Promise<string[]> {
  const files = REAL_CRDS.filter((p) => existsSync(p)).flatMap((p) =>
    p.endsWith('.yml') ? [p] : readdirSync(p).map((name) => path.join(p, name)),
  );
  if (files.length === 0) return [];
  const texts = files.map((file) => readFileSync(file, 'utf8'));
  const lines = [
    `real CRDs checked as manifests (${REAL_CRDS.join(', ')}), copies with their groups renamed, whole processes, medians of ${PROCESS_RUNS}`,
    '',
    '  copies   files       MB   walk + parse ms   cosi check ms   check/parse   check growth',
  ];
  let previous: number | undefined;
  for (const copies of [1, 2, 4]) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-crds-bench-'));
    try {
      let bytes = 0;
      for (let copy = 0; copy < copies; copy++) {
        const rename = (text: string): string =>
          copy === 0 ? text : text.replace(REAL_CRD_GROUPS, `c${copy}.$1`);
        const into = path.join(dir, `copy-${copy}`);
        await mkdir(into);
        for (const [i, text] of texts.entries()) {
          const renamed = rename(text);
          bytes += renamed.length;
          await writeFile(path.join(into, `crd-${i}.yaml`), renamed);
        }
        await writeFile(
          path.join(into, 'certificate.yaml'),
          rename(
            'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: { name: web, namespace: apps }\nspec:\n  secretName: web-tls\n  dnsNames: [web.example.org]\n  issuerRef: { name: letsencrypt, kind: ClusterIssuer }\n',
          ),
        );
      }
      const { parseMs, checkMs } = await checkAgainstParse(dir);
      const growth = previous === undefined ? '' : `${(checkMs / previous).toFixed(2)}x`;
      previous = checkMs;
      lines.push(
        `  ${String(copies).padStart(6)}  ${String(copies * (texts.length + 1)).padStart(6)}  ${(bytes / 1e6).toFixed(1).padStart(7)}  ${parseMs.toFixed(0).padStart(16)}  ${checkMs.toFixed(0).padStart(14)}  ${(checkMs / parseMs).toFixed(2).padStart(11)}x  ${growth.padStart(13)}`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  lines.push('', '  (growth: check time against the size before; 2x the copies each step)', '');
  return lines;
}

/** `cosi check DIR` and the walk + parse of DIR, whole processes, medians of {@link PROCESS_RUNS}. */
async function checkAgainstParse(dir: string): Promise<{ parseMs: number; checkMs: number }> {
  const parse: number[] = [];
  const check: number[] = [];
  for (let run = 0; run < PROCESS_RUNS; run++) {
    parse.push((await timeNode([path.join('bench', 'walk-and-parse.mjs'), dir])).wall);
    check.push((await timeNode(['bin/cosi.js', 'check', dir, '-q'])).wall);
  }
  return { parseMs: median(parse), checkMs: median(check) };
}

/** How many times the large CRD repeats its container schema (`--quick`: the first two). */
const REPEATS = quick ? [25, 50] : [25, 50, 100];

/**
 * A container's schema as generators write it (env, ports, probes, resources, volume mounts):
 * about 150 nodes, the same object at every place a CRD embeds a container.
 */
function containerSchema(indent: string): string {
  const probe = `{ type: object, properties: { httpGet: { type: object, properties: { path: { type: string }, port: { x-kubernetes-int-or-string: true }, scheme: { type: string, enum: [HTTP, HTTPS] } }, required: [port] }, initialDelaySeconds: { type: integer, format: int32 }, periodSeconds: { type: integer, format: int32 }, failureThreshold: { type: integer, format: int32 } } }`;
  return [
    'type: object',
    'required: [name]',
    'properties:',
    '  name: { type: string, maxLength: 63 }',
    '  image: { type: string }',
    '  command: { type: array, items: { type: string } }',
    '  args: { type: array, items: { type: string } }',
    '  env: { type: array, items: { type: object, required: [name], properties: { name: { type: string }, value: { type: string }, valueFrom: { type: object, properties: { secretKeyRef: { type: object, required: [key], properties: { name: { type: string }, key: { type: string }, optional: { type: boolean } } }, configMapKeyRef: { type: object, required: [key], properties: { name: { type: string }, key: { type: string }, optional: { type: boolean } } } } } } }, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name] }',
    '  ports: { type: array, items: { type: object, required: [containerPort], properties: { name: { type: string }, containerPort: { type: integer, format: int32, minimum: 1, maximum: 65535 }, protocol: { type: string, enum: [TCP, UDP, SCTP], default: TCP } } } }',
    `  livenessProbe: ${probe}`,
    `  readinessProbe: ${probe}`,
    `  startupProbe: ${probe}`,
    '  resources: { type: object, properties: { limits: { type: object, additionalProperties: { x-kubernetes-int-or-string: true, pattern: "^[0-9.]+[a-zA-Z]*$" } }, requests: { type: object, additionalProperties: { x-kubernetes-int-or-string: true, pattern: "^[0-9.]+[a-zA-Z]*$" } } } }',
    '  volumeMounts: { type: array, items: { type: object, required: [name, mountPath], properties: { name: { type: string }, mountPath: { type: string }, readOnly: { type: boolean }, subPath: { type: string } } } }',
  ]
    .map((line) => `${indent}${line}`)
    .join('\n');
}

/**
 * One CRD whose schema embeds the same container schema `repeats` times (as Argo Workflows'
 * Workflow embeds its template's, 14,822 nodes of which 1,516 differ), with a resource that
 * fills each place: the schema compiles each repeated subschema once (`shared-subschemas.ts`),
 * so the check should grow with the resource, not with the copies compiled.
 */
function repeatedSchemaFiles(repeats: number): { crd: string; resource: string } {
  const fields = Array.from(
    { length: repeats },
    (_, i) => `                step${i}:\n${containerSchema('                  ')}`,
  );
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: pipelines.example.org }
spec:
  group: example.org
  names: { plural: pipelines, kind: Pipeline }
  scope: Namespaced
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
${fields.join('\n')}
`;
  const steps = Array.from(
    { length: repeats },
    (_, i) =>
      `  step${i}: { name: s${i}, image: "busybox:1.36", env: [{ name: A, value: "1" }], ports: [{ containerPort: 8080 }], resources: { limits: { cpu: 500m } }, livenessProbe: { httpGet: { port: 8080 } } }`,
  );
  const resource = `apiVersion: example.org/v1\nkind: Pipeline\nmetadata: { name: p, namespace: ci }\nspec:\n${steps.join('\n')}\n`;
  return { crd, resource };
}

/** The large CRD at several repeats: a whole `cosi check` process against walk + parse. */
async function repeatedSubschemas(): Promise<string[]> {
  const lines = [
    `one large CRD repeating a container schema (as Argo Workflows' does) and one resource, whole processes, medians of ${PROCESS_RUNS}`,
    '',
    '  repeats   schema KB   walk + parse ms   cosi check ms   check/parse   check growth',
  ];
  let previous: number | undefined;
  for (const repeats of REPEATS) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-repeated-bench-'));
    try {
      const { crd, resource } = repeatedSchemaFiles(repeats);
      await writeFile(path.join(dir, 'crd.yaml'), crd);
      await writeFile(path.join(dir, 'pipeline.yaml'), resource);
      const { parseMs, checkMs } = await checkAgainstParse(dir);
      const growth = previous === undefined ? '' : `${(checkMs / previous).toFixed(2)}x`;
      previous = checkMs;
      lines.push(
        `  ${String(repeats).padStart(7)}  ${(crd.length / 1e3).toFixed(0).padStart(10)}  ${parseMs.toFixed(0).padStart(16)}  ${checkMs.toFixed(0).padStart(14)}  ${(checkMs / parseMs).toFixed(2).padStart(11)}x  ${growth.padStart(13)}`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  lines.push('', '  (growth: check time against the size before; 2x the repeats each step)', '');
  return lines;
}

/** The JSON Schemas of CRDs-catalog the catalog section reads (`--schema-location`). */
const CATALOG = 'fixtures/real-crds/crds-catalog';

/** Documents of the four catalog kinds, as one file per application of four. */
function catalogDocuments(documents: number): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  for (let i = 0; i < documents / 4; i++) {
    files.push({
      path: `platform/app-${i}.yaml`,
      text: `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: { name: web-${i}, namespace: app-${i} }
spec:
  secretName: web-${i}-tls
  dnsNames: [app-${i}.example.org]
  issuerRef: { name: letsencrypt, kind: ClusterIssuer }
---
apiVersion: ec2.aws.m.upbound.io/v1beta1
kind: VPC
metadata: { name: vpc-${i}, namespace: app-${i} }
spec:
  forProvider: { region: eu-west-1, cidrBlock: 10.${i % 256}.0.0/16 }
---
apiVersion: networking.istio.io/v1alpha3
kind: Gateway
metadata: { name: gw-${i}, namespace: app-${i} }
spec:
  selector: { istio: ingressgateway }
  servers:
    - port: { number: 80, name: http, protocol: HTTP }
      hosts: [app-${i}.example.org]
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: { name: app-${i}, namespace: flux-system }
spec:
  interval: 10m
  prune: true
  path: ./apps/app-${i}
  sourceRef: { kind: GitRepository, name: flux-system }
`,
    });
  }
  return files;
}

/**
 * Documents whose kinds only CRDs-catalog's JSON Schemas define, loaded with `--schema-location`
 * (each schema read and compiled once per load's catalog) against the bare parse.
 */
async function catalogKinds(loaders: typeof Loaders): Promise<string[]> {
  if (!existsSync(CATALOG)) return [];
  const locations = loaders.parseSchemaLocations([
    `${CATALOG}/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`,
  ]);
  return loadAgainstParse(
    loaders,
    `documents of four kinds defined by JSON Schemas (${CATALOG}, --schema-location): load + check vs the bare parse`,
    catalogDocuments,
    // A fresh catalog each run: its schemas' reading and compiling is part of the cost.
    () => ({
      schemaKinds: new loaders.JsonSchemaKinds({
        locations,
        read: (file) =>
          existsSync(file) ? { text: readFileSync(file, 'utf8') } : { missing: true },
        release: '1.36',
      }),
    }),
  );
}

/**
 * The load (and check) of `filesOf(n)` documents, each with the options `optionsOf` gives it,
 * against the bare parse of the same files, at each of {@link SIZES}, with the growth.
 */
async function loadAgainstParse(
  loaders: typeof Loaders,
  title: string,
  filesOf: (documents: number) => { path: string; text: string }[],
  optionsOf: () => Loaders.LoadManifestsOptions,
): Promise<string[]> {
  const lines = [title, '', '  documents   parse ms   load ms   load/parse   load growth'];
  let previous: number | undefined;
  for (const count of SIZES) {
    const files = filesOf(count);
    const load = (): void => {
      const result = loaders.loadManifests(files, optionsOf());
      if (result.findings.length > 0 || result.resources.length !== count) {
        throw new Error(
          `unexpected load: ${result.findings[0]?.message ?? result.resources.length}`,
        );
      }
    };
    const parse = (): void => {
      for (const file of files) for (const doc of parseAllDocuments(file.text)) doc.toJS();
    };
    const { cosi, baseline } = await compare(
      count,
      { prepare: () => undefined, work: load },
      { prepare: () => undefined, work: parse },
      { runs: 3 },
    );
    const growth = previous === undefined ? '' : `${(cosi.ms / previous).toFixed(2)}x`;
    previous = cosi.ms;
    lines.push(
      `  ${String(count).padStart(9)}  ${baseline.ms.toFixed(0).padStart(9)}  ${cosi.ms.toFixed(0).padStart(8)}  ${(cosi.ms / baseline.ms).toFixed(2).padStart(10)}x  ${growth.padStart(12)}`,
    );
  }
  lines.push('', '  (growth: load time against the size before)', '');
  return lines;
}

/** Worlds of `check --each` (one directory of four documents each). */
const WORLD_SIZES = quick ? [10, 20] : [10, 50, 250];

/**
 * `cosi check --each` of N environment directories against `cosi check` of the same directories
 * as one world (their names are distinct, so both pass), whole processes: what a world of its own
 * costs beyond its documents.
 */
async function eachWorld(): Promise<string[]> {
  const lines = [
    'check --each: one world per directory vs the same directories as one world, whole processes',
    '',
    '  worlds  documents   one world ms   --each ms   each/one   --each growth',
  ];
  let previous: number | undefined;
  for (const worlds of WORLD_SIZES) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-each-bench-'));
    try {
      const paths: string[] = [];
      for (let i = 0; i < worlds; i++) {
        const env = path.join(dir, `env-${i}`);
        await mkdir(env);
        await writeFile(
          path.join(env, 'app.yaml'),
          app(i).split('---\n').slice(0, 4).join('---\n'),
        );
        paths.push(env);
      }
      const one = await timeNode(['bin/cosi.js', 'check', ...paths, '-q']);
      const each = await timeNode(['bin/cosi.js', 'check', '--each', ...paths, '-q']);
      const growth = previous === undefined ? '' : `${(each.wall / previous).toFixed(2)}x`;
      previous = each.wall;
      lines.push(
        `  ${String(worlds).padStart(6)}  ${String(worlds * 4).padStart(9)}  ${one.wall.toFixed(0).padStart(13)}  ${each.wall.toFixed(0).padStart(10)}  ${(each.wall / one.wall).toFixed(2).padStart(8)}x  ${growth.padStart(13)}`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  lines.push('', '  (growth: --each time against the size before; 5x the worlds each step)', '');
  return lines;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1] as number;
}

/** A process's wall time and CPU time (user + system; NaN where it cannot be read), in ms. */
interface ProcessTime {
  wall: number;
  cpu: number;
}

/**
 * The CPU time of this process's waited-for children so far, in ms: Linux's `cutime` and
 * `cstime` of `/proc/self/stat` (in ticks of 10 ms); NaN elsewhere.
 */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name (which may hold spaces) in parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** How long `node args...` takes, start to exit; a non-zero exit breaks the benchmark. */
function timeNode(args: readonly string[]): Promise<ProcessTime> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const cpuBefore = childrenCpuMs();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ wall: performance.now() - start, cpu: childrenCpuMs() - cpuBefore });
    });
  });
}

/**
 * Application `i` of a repository kept as teams keep them: a kustomize base (a kustomization and
 * a Deployment) and a production overlay (a kustomization, a patch, a ConfigMap), and every tenth
 * application a Helm chart beside them (Chart.yaml, values, a template).
 */
async function writeApplication(root: string, i: number): Promise<number> {
  const dir = path.join(root, `app-${i}`);
  await mkdir(path.join(dir, 'base'), { recursive: true });
  await mkdir(path.join(dir, 'overlays/prod'), { recursive: true });
  const name = `app-${i}`;
  await writeFile(path.join(dir, 'base/kustomization.yaml'), 'resources: [deployment.yaml]\n');
  await writeFile(
    path.join(dir, 'base/deployment.yaml'),
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ${name} }\nspec:\n  selector: { matchLabels: { app: ${name} } }\n  template:\n    metadata: { labels: { app: ${name} } }\n    spec: { containers: [{ name: main, image: "r/${name}:1" }] }\n`,
  );
  await writeFile(
    path.join(dir, 'overlays/prod/kustomization.yaml'),
    'resources: [../../base, settings.yaml]\npatches:\n  - path: replicas.yaml\n',
  );
  await writeFile(
    path.join(dir, 'overlays/prod/replicas.yaml'),
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ${name} }\nspec: { replicas: 3 }\n`,
  );
  await writeFile(
    path.join(dir, 'overlays/prod/settings.yaml'),
    `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name}-settings }\ndata: { a: b }\n`,
  );
  if (i % 10 !== 0) return 5;
  await mkdir(path.join(dir, 'chart/templates'), { recursive: true });
  await writeFile(
    path.join(dir, 'chart/Chart.yaml'),
    `apiVersion: v2\nname: ${name}\nversion: 1.0.0\n`,
  );
  await writeFile(path.join(dir, 'chart/values.yaml'), 'replicas: 2\n');
  await writeFile(
    path.join(dir, 'chart/templates/service.yaml'),
    'apiVersion: v1\nkind: Service\nmetadata: { name: {{ .Release.Name }} }\n',
  );
  return 8;
}

/** Every YAML file below `dir`: the least a walk of it does. */
async function bareWalk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await bareWalk(full)));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/**
 * The walk of repositories of kustomize overlays and Helm charts (what it sets aside read for
 * the patches kustomizations name), against a bare recursive `readdir` of the same trees.
 */
async function walkRepositories(loaders: typeof Loaders): Promise<string[]> {
  const lines = [
    'a repository of kustomize bases and overlays and Helm charts: the walk (charts and kustomize files set aside) vs a bare readdir walk',
    '',
    '  applications   files   readdir ms   walk ms   walk/readdir   walk growth',
  ];
  let previous: number | undefined;
  for (const apps of WALK_SIZES) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-k8s-walk-bench-'));
    try {
      let files = 0;
      for (let i = 0; i < apps; i++) files += await writeApplication(dir, i);
      const { cosi, baseline } = await compare(
        apps,
        {
          prepare: () => undefined,
          work: async () => {
            const tree = await loaders.walkManifestTree([dir]);
            // Each application: its base Deployment and its ConfigMap are read.
            if (tree.files.length !== apps * 2) throw new Error(`walked ${tree.files.length}`);
          },
        },
        {
          prepare: () => undefined,
          work: async () => {
            await bareWalk(dir);
          },
        },
        { runs: 3 },
      );
      const growth = previous === undefined ? '' : `${(cosi.ms / previous).toFixed(2)}x`;
      previous = cosi.ms;
      lines.push(
        `  ${String(apps).padStart(12)}  ${String(files).padStart(6)}  ${baseline.ms.toFixed(0).padStart(11)}  ${cosi.ms.toFixed(0).padStart(8)}  ${(cosi.ms / baseline.ms).toFixed(2).padStart(12)}x  ${growth.padStart(12)}`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  lines.push(
    '',
    '  (growth: walk time against the size before; 5x the applications each step)',
    '',
  );
  return lines;
}
