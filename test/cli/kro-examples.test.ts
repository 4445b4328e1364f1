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
