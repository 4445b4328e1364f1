import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli } from './run-cli.js';

/** Built-in objects written without what the API server defaults (protocol, type, replicas). */
const MANIFESTS = `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports:
    - {name: http, port: 80, targetPort: 8080}
    - {name: dns, port: 53, protocol: UDP}
---
apiVersion: v1
kind: Service
metadata: {name: node, namespace: default}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{port: 80, nodePort: 30080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - {name: web, image: nginx:1.27}
        - {name: proxy, image: envoy:1.30}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: default}
spec:
  defaultBackend: {service: {name: web, port: {number: 80}}}
`;

/** The table's rows as lists of cells. */
function rows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.trim().split(/\s{2,}/));
}

describe("built-in kinds print as kubectl prints the API server's stored object", () => {
  it('columns show the defaults and kubectl’s cells: 80/TCP, ClusterIP, 1 replica, images joined with a comma', async () => {
    const r = await cli(['get', 'svc,deploy,ing', '-f', '-', '-q', '--no-headers'], {
      stdin: MANIFESTS,
    });
    expect(r.stderr).toBe('');
    expect(rows(r.stdout)).toEqual([
      ['default', 'Service', 'node', '1', '<none>', 'running', 'NodePort', '80:30080/TCP'],
      ['default', 'Service', 'web', '1', '<none>', 'running', 'ClusterIP', '80/TCP,53/UDP'],
      ['default', 'Deployment', 'web', '1', '<none>', 'running', '1', 'nginx:1.27,envoy:1.30'],
      ['default', 'Ingress', 'web', '1', '<none>', 'running', '<none>'],
    ]);
  });

  it('-o yaml, -o jsonpath and --sort-by read the defaulted object, as kubectl get does', async () => {
    const yaml = await cli(['get', 'svc', 'web', '-f', '-', '-q', '-o', 'yaml'], {
      stdin: MANIFESTS,
    });
    const service = parse(yaml.stdout) as { spec: Record<string, unknown> };
    expect(service.spec).toMatchObject({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ports: [
        { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
        { name: 'dns', port: 53, targetPort: 53, protocol: 'UDP' },
      ],
    });
    const replicas = await cli(
      ['get', 'deploy', '-f', '-', '-q', '-o', 'jsonpath={.items[*].spec.replicas}'],
      { stdin: MANIFESTS },
    );
    expect(replicas.stdout.trim()).toBe('1');
    const sorted = await cli(
      ['get', 'svc', '-f', '-', '-q', '--sort-by', '.spec.type', '-o', 'name'],
      { stdin: MANIFESTS },
    );
    // ClusterIP (defaulted) before NodePort: sorted by the type the API server stores.
    expect(sorted.stdout).toBe('service/web\nservice/node\n');
  });

  it("other kinds get kubectl's columns: a ConfigMap's DATA, a CronJob's SUSPEND, a PDB's N/A, a selector, a role", async () => {
    const more = `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {a: '1', b: '2'}
binaryData: {c: AA==}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: default}
spec:
  schedule: '0 3 * * *'
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: c, image: busybox:1.36}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web, namespace: default}
spec:
  podSelector:
    matchLabels: {tier: front, app: web}
    matchExpressions: [{key: env, operator: In, values: [prod, dev]}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: all, namespace: default}
spec:
  podSelector: {}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: readers, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: ServiceAccount, name: default, namespace: default}]
`;
    const r = await cli(['get', 'cm,cj,pdb,netpol,rolebinding', '-f', '-', '-q'], {
      stdin: more,
    });
    expect(r.stderr).toBe('');
    const tables = r.stdout.split('\n\n').map((table) => rows(table));
    expect(tables.map((table) => table.map((cells) => cells.slice(6)))).toEqual([
      [['DATA'], ['3']],
      [
        ['SCHEDULE', 'TIMEZONE', 'SUSPEND'],
        ['0 3 * * *', '<none>', 'False'],
      ],
      [
        ['MIN AVAILABLE', 'MAX UNAVAILABLE'],
        ['1', 'N/A'],
      ],
      [['POD-SELECTOR'], ['<none>'], ['app=web,env in (dev,prod),tier=front']],
      [['ROLE'], ['ClusterRole/view']],
    ]);
  });
});
