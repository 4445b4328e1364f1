import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const KUBERNETES = 'fixtures/kubernetes';

describe('cosi explain TYPE.field (no id): the field documentation', () => {
  it("walks a Kubernetes kind from the document's root, named by its kind", async () => {
    const r = await cli(['explain', 'certificate.spec', '-f', KUBERNETES]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^GROUP: +cert-manager\.io\nKIND: +Certificate\nVERSION: +v1\n\nFIELD: spec <Object> -required-\n/,
    );
    expect(r.stdout).toContain('\n  secretName\t<string> -required-\n');
    expect(r.stdout).toContain('\n  dnsNames\t<[]string>\n');
  });

  it("gives a CRD's metadata, apiVersion and kind as the API server publishes them: ObjectMeta", async () => {
    const r = await cli(['explain', 'certificate.metadata', '-f', KUBERNETES]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('FIELD: metadata <ObjectMeta>\n');
    expect(r.stdout).toContain('\n  name\t<string>\n');
    expect(r.stdout).toContain('\n  labels\t<map[string]string>\n');
    expect(r.stdout).toContain('\n  ownerReferences\t<[]OwnerReference>\n');
    const root = await cli(['explain', 'certificate', '-f', KUBERNETES]);
    expect(root.stdout).toContain(
      '\n  kind\t<string>\n    Kind is a string value representing the REST resource this object\n    represents. Servers may infer this',
    );
  });

  it('prints the enum and the default of a field', async () => {
    const r = await cli(['explain', 'Certificate.spec.privateKey.algorithm', '-f', KUBERNETES]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('FIELD: algorithm <string>');
    expect(r.stdout).toContain('ENUM:\n    RSA\n    ECDSA\n    Ed25519\n');
    expect(r.stdout).toContain('DEFAULT:\n    RSA\n');
  });

  it('prints the CEL rules of a field, from --definitions alone', async () => {
    const r = await cli([
      'explain',
      'database.spec.storage',
      '--definitions',
      'fixtures/cel/crd/v1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "RULES:\n    isQuantity(self) && quantity(self).isGreaterThan(quantity('1Gi'))\n      message: storage must be a quantity over 1Gi\n",
    );
  });

  it("walks a cosi type's metadata and spec, by any alias or its full type", async () => {
    const alias = await cli(['explain', 'vm.spec', '-f', 'fixtures/vm-network']);
    expect(alias.code, alias.stderr).toBe(0);
    expect(alias.stdout).toMatch(/^TYPE: +VMs\.example\.org\nALIASES: +vm, vms\n/);
    expect(alias.stdout).toContain('  cpus\t<integer> -required-');
    const full = await cli(['explain', 'VMs.example.org.spec.cpus', '-f', 'fixtures/vm-network']);
    expect(full.stdout).toContain('FIELD: cpus <integer> -required-');
  });

  it('prints the tree of fields with --recursive', async () => {
    const r = await cli(['explain', 'certificate', '--recursive', '-f', KUBERNETES]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '  spec\t<Object> -required-\n    commonName\t<string>\n    dnsNames\t<[]string>\n',
    );
    expect(r.stdout).toContain('    issuerRef\t<Object> -required-\n      group\t<string>\n');
  });

  it('prints the schema node with -o json and -o yaml', async () => {
    const json = await cli(['explain', 'certificate.spec.isCA', '-f', KUBERNETES, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual({ type: 'boolean', default: false });
    const yaml = await cli(['explain', 'certificate.spec.isCA', '-f', KUBERNETES, '-o', 'yaml']);
    expect(yaml.stdout).toBe('type: boolean\ndefault: false\n');
  });

  it("takes kubectl's name of its default format, -o plaintext, as the tree, for a field and a resource", async () => {
    const tree = await cli(['explain', 'certificate.spec', '-f', KUBERNETES]);
    const plain = await cli(['explain', 'certificate.spec', '-f', KUBERNETES, '-o', 'plaintext']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('FIELD: spec <Object> -required-\n');
    expect(plain.stdout).toBe(tree.stdout);
    const resource = await cli([
      'explain',
      'vm',
      'web-1',
      '-f',
      'fixtures/vm-network',
      '-o',
      'plaintext',
    ]);
    expect(resource.code, resource.stderr).toBe(0);
    const resourceTree = await cli(['explain', 'vm', 'web-1', '-f', 'fixtures/vm-network']);
    expect(resource.stdout).toBe(resourceTree.stdout);
    expect(resource.stdout).toContain('web-1');
  });

  it('says which fields exist for an unknown one, with the nearest', async () => {
    const r = await cli(['explain', 'certificate.spec.secretNam', '-f', KUBERNETES]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'Certificates.cert-manager.io.spec has no field "secretNam" (did you mean "secretName"?); its fields: commonName, dnsNames,',
    );
  });

  it('suggests the nearest type for a misspelled one', async () => {
    const r = await cli(['explain', 'certficate.spec', '-f', KUBERNETES]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'resource type "certficate" is not registered (did you mean "certificate"?)',
    );
  });

  it('refuses a format of the lineage, and --why-not without an id', async () => {
    const dot = await cli(['explain', 'certificate', '-f', KUBERNETES, '-o', 'dot']);
    expect(dot.code).toBe(2);
    expect(dot.stderr).toContain('-o: unknown format "dot" (expected tree, json, yaml)');
    const whyNot = await cli(['explain', 'certificate', '-f', KUBERNETES, '--why-not']);
    expect(whyNot.code).toBe(2);
    expect(whyNot.stderr).toContain('give the resource id');
  });
});

describe('did you mean, for a type on the command line', () => {
  it('cosi get with a misspelled type names the nearest', async () => {
    const r = await cli(['get', 'vmz', '-f', 'fixtures/vm-network']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('resource type "vmz" is not registered (did you mean "vms"?)');
  });

  it('cosi explain TYPE ID with a misspelled type names the nearest, the lineage unchanged', async () => {
    const r = await cli(['explain', 'netwrokconfig', 'web-1', '-f', 'fixtures/vm-network', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(did you mean "networkconfig"?)');
  });
});

describe('cosi explain TYPE with no definitions at all', () => {
  it('says where definitions come from', async () => {
    const r = await cli(['explain', 'vm'], { cwd: '/' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'no definitions were found beside the built-in Kubernetes kinds: give the manifests (-f), --definitions or --config',
    );
  });

  it('explains a built-in Kubernetes kind with no manifests at all, and names the nearest', async () => {
    const r = await cli(['explain', 'deployment.spec.strategy.type'], { cwd: '/' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^GROUP: +apps\nKIND: +Deployment\nVERSION: +v1\n/);
    expect(r.stdout).toContain('ENUM:\n    Recreate\n    RollingUpdate\n');
    const typo = await cli(['explain', 'deploymnet'], { cwd: '/' });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(did you mean "Deployment"?)');
  });

  it("names a built-in kind's field types as kubectl does: PodTemplateSpec, []Container", async () => {
    const r = await cli(['explain', 'deployment.spec.template'], { cwd: '/' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('FIELD: template <PodTemplateSpec> -required-\n');
    expect(r.stdout).toContain('\n  metadata\t<ObjectMeta>\n');
    const tree = await cli(['explain', 'deployment.spec.template.spec', '--recursive'], {
      cwd: '/',
    });
    expect(tree.stdout).toContain(
      '\n  containers\t<[]Container> -required-\n    args\t<[]string>\n',
    );
    expect(tree.stdout).toContain('\n      limits\t<map[string]Quantity>\n');
  });

  it("takes kubectl's --api-version, -R and --max-depth", async () => {
    const v1 = await cli(['explain', 'hpa.spec', '--api-version', 'autoscaling/v1'], { cwd: '/' });
    expect(v1.code, v1.stderr).toBe(0);
    expect(v1.stdout).toMatch(
      /^GROUP: +autoscaling\nKIND: +HorizontalPodAutoscaler\nVERSION: +v1\n/,
    );
    expect(v1.stdout).toContain('\n  targetCPUUtilizationPercentage\t<integer>\n');
    const missing = await cli(['explain', 'hpa', '--api-version', 'autoscaling/v9'], { cwd: '/' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('is served at autoscaling/v1, autoscaling/v2');
    const shallow = await cli(['explain', 'deployment.spec', '-R', '--max-depth', '1'], {
      cwd: '/',
    });
    expect(shallow.code, shallow.stderr).toBe(0);
    expect(shallow.stdout).toContain('\n  template\t<PodTemplateSpec> -required-\n');
    expect(shallow.stdout).not.toContain('\n    spec\t<PodSpec>');
    const alone = await cli(['explain', 'deployment.spec', '--max-depth', '1'], { cwd: '/' });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--max-depth requires --recursive');
  });

  it("refuses the flags of a type's fields for a resource, rather than ignoring them", async () => {
    const r = await cli(['explain', 'vm', 'web-1', '-f', 'fixtures/vm-network', '-R']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--recursive: only for a type's fields (TYPE.field.path, no id)");
  });

  it("finds a built-in kind by kubectl's short names and plurals, in its preferred version", async () => {
    const hpa = await cli(['explain', 'hpa.spec.maxReplicas'], { cwd: '/' });
    expect(hpa.code, hpa.stderr).toBe(0);
    expect(hpa.stdout).toMatch(
      /^GROUP: +autoscaling\nKIND: +HorizontalPodAutoscaler\nVERSION: +v2\n/,
    );
    const svc = await cli(['explain', 'svc.spec.type'], { cwd: '/' });
    expect(svc.stdout).toMatch(/KIND: +Service\n/);
    const plural = await cli(['explain', 'ingresses.networking.k8s.io.spec'], { cwd: '/' });
    expect(plural.stdout).toMatch(/GROUP: +networking\.k8s\.io\nKIND: +Ingress\n/);
  });
});

describe('cosi explain TYPE with a name the kinds of two groups share', () => {
  /** A CRD of kind Gateway in `group`, with one field. */
  const gatewayCrd = (group: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gateways.${group}
spec:
  group: ${group}
  names: { kind: Gateway, listKind: GatewayList, plural: gateways, singular: gateway }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, description: 'The ${group} gateway.' }
`;

  it('says how to choose one with --api-version, and takes it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-explain-groups-'));
    try {
      await writeFile(path.join(dir, 'net.yaml'), gatewayCrd('net.example.org'));
      await writeFile(path.join(dir, 'mesh.yaml'), gatewayCrd('mesh.example.com'));
      const ambiguous = await cli(['explain', 'gateway.spec', '--definitions', dir]);
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toContain(
        '; choose one with --api-version mesh.example.com/v1 or net.example.org/v1\n',
      );
      const chosen = await cli([
        'explain',
        'gateway.spec',
        '--definitions',
        dir,
        '--api-version',
        'mesh.example.com/v1',
      ]);
      expect(chosen.code, chosen.stderr).toBe(0);
      expect(chosen.stdout).toContain('The mesh.example.com gateway.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
