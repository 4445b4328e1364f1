import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cli } from './run-cli.js';

/** kro's own examples (fixtures/kro-examples, Apache 2.0), with what each must produce offline. */
const EXAMPLES: [string, string[]][] = [
  // The Service and Ingress wait for the Deployment's readyWhen (availableReplicas): offline,
  // only the Deployment is produced.
  ['webapp', ['Deployment/test-app', 'WebApp/test-app']],
  ['defaults', ['Something/my-instance-will-cel-functions']],
  [
    'job-example',
    [
      'Deployment/example-job-deployment',
      'JobDeployment/example-job-deployment',
      'Job/example-job-deployment-job',
    ],
  ],
  [
    'additionalPrinterColumns',
    ['Application/test-app', 'Deployment/test-app', 'Service/test-app-service'],
  ],
  ['cel-functions', ['Deployment/app', 'Service/app', 'Something/my-instance-will-cel-functions']],
  ['dogsvscats/result-app', ['Deployment/result-app-demo-result', 'ResultApp/result-app-demo']],
  ['dogsvscats/vote-app', ['Deployment/vote-app-demo-vote', 'VoteApp/vote-app-demo']],
  ['dogsvscats/worker-app', ['Deployment/worker-app-demo-worker', 'WorkerApp/worker-app-demo']],
  [
    'saas-multi-tenant',
    [
      'Deployment/tenant001-deployment',
      'Namespace/tenant001',
      'NetworkPolicy/tenant001-isolation',
      'ResourceQuota/tenant001-quota',
      'Service/tenant001-service',
      'TenantApplication/tenant001',
      'TenantEnvironment/tenant001',
      'Tenant/tenant001',
    ],
  ],
];

interface Doc {
  kind: string;
  metadata: { name: string };
  spec?: { template?: { spec?: { containers?: { env?: { name: string; value: string }[] }[] } } };
}

describe("kro's own examples", { timeout: 60_000 }, () => {
  it.each(EXAMPLES)('%s loads, converges and produces its resources', async (name, expected) => {
    const r = await cli(['apply', '-f', `fixtures/kro-examples/${name}`, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS() as Doc);
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual(expected);
  });

  it("cel-functions renders kro's CEL functions as kro does", async () => {
    const r = await cli(['apply', '-f', 'fixtures/kro-examples/cel-functions', '-o', 'yaml']);
    const deployment = parseAllDocuments(r.stdout)
      .map((d) => d.toJS() as Doc)
      .find((d) => d.kind === 'Deployment');
    const env = Object.fromEntries(
      (deployment?.spec?.template?.spec?.containers?.[0]?.env ?? []).map((e) => [e.name, e.value]),
    );
    expect(env).toMatchObject({
      DNS_FIRST_PART: 'a',
      LISTS_SUM: '600',
      JSON_UNMARSHAL_EXAMPLE: 'exampleJSONValue',
      JSON_MARSHAL_EXAMPLE: '{"name":"app"}',
      QUANTITY_COMPARISON: 'small',
      HASH_FNV64A_BASE64: '50+nGQVqg4w=',
      HASH_SHA256_BASE64: 'oXLO3K5HR0thXFTVEKXYSo3qMDLpWFh0MLQTU4vj8zM=',
    });
    expect(env.RANDOM_SEEDED_STRING).toMatch(/^[0-9a-z]{10}$/);
  });
});

describe(
  "an RGD kro refuses defines no kind (kro's examples/aws/ingress-triangle)",
  { timeout: 60_000 },
  () => {
    it('refuses the RGD that nests it and the instances of both, and renders nothing', async () => {
      // ingress-triangle.yaml templates ACK kinds whose CRDs are not given: kro does not build its
      // graph, so never creates the IngressTriangle CRD, and application.yaml, whose resource is an
      // IngressTriangle, fails in turn; no ServiceIngress CRD then, so the instance is refused too.
      const dir = 'fixtures/kro-examples/aws-ingress-triangle';
      const r = await cli(['check', '-f', dir, '--stable']);
      expect(r.code).toBe(1);
      const errors = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes(': error['));
      expect(errors.map((l) => /^(\S+): error\[([\w-]+)\]/.exec(l)?.slice(1).join(' '))).toEqual([
        `${dir}/application.yaml:21:13 rgd-unknown-kind`,
        `${dir}/ingress-triangle.yaml:25:13 rgd-unknown-kind`,
        `${dir}/ingress-triangle.yaml:36:13 rgd-unknown-kind`,
        `${dir}/instances/app1-ingress.yaml:2:7 unknown-type`,
      ]);
      expect(errors[0]).toContain(
        `resource ingresstriangle: kind IngressTriangle of kro.run/v1alpha1 is not defined: its ResourceGraphDefinition at ${dir}/ingress-triangle.yaml:4:9 is invalid (kro creates the CRD of an RGD only once its graph builds)`,
      );
      expect(errors[3]).toContain(
        `kind ServiceIngress of kro.run/v1alpha1 is not defined: its ResourceGraphDefinition at ${dir}/application.yaml:4:9 is invalid`,
      );
      // Nothing waits on an IngressTriangle no RGD renders.
      expect(`${r.stdout}${r.stderr}`).not.toContain('rgd-waiting');
    });

    it('refuses an instance of an RGD whose graph is refused, pointing at the RGD', async () => {
      // The RGD alone, with one instance: kro creates no CRD, so kubectl cannot apply the instance.
      const dir = 'fixtures/kro-examples/aws-ingress-triangle';
      const instance = [
        'apiVersion: kro.run/v1alpha1',
        'kind: IngressTriangle',
        'metadata: { name: tri, namespace: default }',
        'spec: { name: tri, namespace: default, subDomain: example.com }',
        '',
      ].join('\n');
      const r = await cli(['apply', '-f', `${dir}/ingress-triangle.yaml`, '-f', '-', '--stable'], {
        stdin: instance,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `<stdin>:2:7: error[unknown-type]: kind IngressTriangle of kro.run/v1alpha1 is not defined: its ResourceGraphDefinition at ${dir}/ingress-triangle.yaml:4:9 is invalid`,
      );
      expect(r.stderr).not.toContain('missing-crd');
    });
  },
);

describe("kro's schema-aware CEL test (fixtures/kro-schema-aware-cel)", { timeout: 60_000 }, () => {
  it('reads the Secret it writes with stringData as the API server serves it: data, as bytes', async () => {
    // kro's test_schema_aware_cel: `${string(secret.data.clientId)}` is the text the Secret's
    // stringData was given. cosi kept stringData as written, so `secret.data` did not exist and
    // the status field was silently left out of an ACTIVE instance.
    const r = await cli(['apply', '-f', 'fixtures/kro-schema-aware-cel', '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map(
      (d) => d.toJS() as Doc & { status?: Record<string, unknown> },
    );
    const instance = docs.find((d) => d.kind === 'TestSchemaCel');
    expect(instance?.status).toMatchObject({
      state: 'ACTIVE',
      decodedClientId: 'my-secret-client',
    });
  });

  it("reads a Secret's data as bytes: string(), size() and base64.encode() of them", async () => {
    const manifests = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata: { name: creds, namespace: default }',
      'data: { clientId: bWF4, clientSecret: bXVzdGVybWFubg== }',
      '---',
      'apiVersion: kro.run/v1alpha1',
      'kind: ResourceGraphDefinition',
      'metadata: { name: reader.kro.run }',
      'spec:',
      '  schema:',
      '    apiVersion: v1alpha1',
      '    kind: Reader',
      '    spec: {}',
      '    status:',
      '      id: ${string(creds.data.clientId)}',
      '      size: ${size(creds.data.clientSecret)}',
      '      encoded: ${base64.encode(creds.data.clientSecret)}',
      '  resources:',
      '    - id: creds',
      '      externalRef:',
      '        apiVersion: v1',
      '        kind: Secret',
      '        metadata: { name: creds, namespace: default }',
      '---',
      'apiVersion: kro.run/v1alpha1',
      'kind: Reader',
      'metadata: { name: r1, namespace: default }',
      'spec: {}',
      '',
    ].join('\n');
    const r = await cli(['apply', '-f', '-', '-o', 'yaml', '--stable'], { stdin: manifests });
    expect(r.code).toBe(0);
    const reader = parseAllDocuments(r.stdout)
      .map((d) => d.toJS() as Doc & { status?: Record<string, unknown> })
      .find((d) => d.kind === 'Reader');
    // kro (UnstructuredToVal): the decoded text, 10 bytes, and the base64 the Secret holds.
    expect(reader?.status).toMatchObject({
      state: 'ACTIVE',
      id: 'max',
      size: 10,
      encoded: 'bXVzdGVybWFubg==',
    });
  });
});
