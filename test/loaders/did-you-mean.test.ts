import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { didYouMean, didYouMeanType } from '../../src/loaders/did-you-mean.js';
import { createDefinition } from '../../src/engine/resource/definition.js';
import { loadManifests, type ManifestFile } from '../../src/loaders/load-manifests.js';

const CRDS: ManifestFile = {
  path: 'crds.yaml',
  text: await readFile(new URL('../../fixtures/kubernetes/crds.yaml', import.meta.url), 'utf8'),
};

const VMS = `metadata:
  type: rd
  id: vms.example.org
spec:
  type: VMs.example.org
  schema:
    type: object
    additionalProperties: false
    properties:
      cpus: { type: integer }
      image: { type: string }
`;

/** The code and message of each finding of the documents, loaded beside the definitions. */
function findingsOf(text: string): [string, string][] {
  const { findings } = loadManifests([
    CRDS,
    { path: 'vms.yaml', text: VMS },
    { path: 'r.yaml', text },
  ]);
  return findings.map((f) => [f.code, f.message]);
}

const certificate = (
  apiVersion: string,
  kind: string,
  spec = 'secretName: s\n  issuerRef: { name: ca }',
) =>
  `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: web\n  namespace: apps\nspec:\n  ${spec}\n`;

describe('did you mean', () => {
  it('names the nearest type for an unknown cosi type, by full type or alias', () => {
    expect(findingsOf('metadata:\n  type: VMz.example.org\n  id: a\nspec: {}\n')).toEqual([
      [
        'unknown-type',
        'the type "VMz.example.org" is not defined (did you mean "VMs.example.org"?)',
      ],
    ]);
    expect(findingsOf('metadata:\n  type: vmz\n  id: a\nspec: {}\n')[0]?.[1]).toContain(
      '(did you mean "vms"?)',
    );
  });

  it('names the nearest kind for a misspelled Kubernetes kind', () => {
    const [finding] = findingsOf(certificate('cert-manager.io/v1', 'Certficate'));
    expect(finding?.[0]).toBe('unknown-type');
    expect(finding?.[1]).toContain('(did you mean kind Certificate of cert-manager.io/v1?)');
  });

  it('says an apiVersion that is no group/version is malformed, as kubectl does, not which CRD to add', () => {
    const found = ['example.com/v1/v2', 'apps/v1/v2', '/v1', 'apps/'].map((apiVersion) =>
      findingsOf(`apiVersion: ${apiVersion}\nkind: Deployment\nmetadata:\n  name: web\n`),
    );
    for (const [i, apiVersion] of ['example.com/v1/v2', 'apps/v1/v2', '/v1', 'apps/'].entries()) {
      expect(found[i]).toEqual([
        [
          'unknown-type',
          `apiVersion "${apiVersion}" is not a group/version: write one / at most (apps/v1, cert-manager.io/v1), or the version alone for the core group (v1)`,
        ],
      ]);
    }
  });

  it('names the nearest built-in kind', () => {
    const [finding] = findingsOf('apiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: web\n');
    expect(finding?.[0]).toBe('unknown-type');
    expect(finding?.[1]).toContain('(did you mean kind Deployment of apps/v1?)');
  });

  it('says which apiVersion serves a known kind written with a misspelt group', () => {
    expect(findingsOf(certificate('certmanager.io/v1', 'Certificate'))).toEqual([
      [
        'unknown-type',
        'kind Certificate is not served by certmanager.io/v1: write apiVersion: cert-manager.io/v1 or cert-manager.io/v1alpha2',
      ],
    ]);
  });

  it('does not take a kind of the same name in an unrelated group for the one meant (Istio Gateway, Gateway API Gateway)', () => {
    const [finding] = findingsOf(certificate('acme.example.org/v1', 'Certificate'));
    expect(finding?.[1]).toBe(
      'no CustomResourceDefinition defines kind Certificate in acme.example.org/v1: add one (certificates.acme.example.org) with spec.group: acme.example.org, spec.names.kind: Certificate and a served version v1 (a kind Certificate of another group is defined, cert-manager.io/v1, cert-manager.io/v1alpha2: another API, unless that is the one meant)',
    );
    // A label more or less is another group too (Crossplane's meta.pkg.crossplane.io).
    const [extra] = findingsOf(certificate('meta.cert-manager.io/v1', 'Certificate'));
    expect(extra?.[1]).toMatch(/^no CustomResourceDefinition defines kind Certificate/);
  });

  it("says a kustomize Kustomization under another file name is kustomize's, not a resource (Flux's gotk-patches.yaml)", () => {
    const found = findingsOf(
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata: { name: k }\nresources: [a.yaml]\n',
    );
    expect(found).toEqual([
      [
        'unknown-type',
        "Kustomization of kustomize.config.k8s.io/v1beta1 is kustomize's configuration, not a resource: name its file kustomization.yaml (set aside, with its patches), or check what it builds with kustomize build DIR | cosi check -f -",
      ],
    ]);
  });

  it('names the nearest declared field for a field the schema does not declare', () => {
    expect(findingsOf('metadata:\n  type: vm\n  id: a\nspec: { cpus: 1, imag: x }\n')).toEqual([
      ['schema-violation', 'unknown field "imag" (did you mean "image"?)'],
    ]);
    const pruned = findingsOf(
      certificate('cert-manager.io/v1', 'Certificate', 'secretNam: s\n  issuerRef: { name: ca }'),
    ).find(([, message]) => message.startsWith('unknown field'));
    expect(pruned?.[0]).toBe('schema-violation');
    expect(pruned?.[1]).toContain('unknown field "secretNam" (did you mean "secretName"?)');
  });

  it('says a Kubernetes object without apiVersion and kind is one, in one finding (a ytt overlay, a snippet)', () => {
    expect(findingsOf('metadata:\n  name: web\nspec:\n  replicas: 2\n')).toEqual([
      [
        'missing-field',
        'a Kubernetes object (metadata.name) needs an apiVersion and a kind; without them it reads as a cosi document, which names metadata.type and metadata.id. If the file is a patch or template (kustomize, ytt), render it first or leave it out with --ignore',
      ],
    ]);
  });

  it('says a document that is neither kind is neither, in one finding (a ytt overlay of labels)', () => {
    expect(findingsOf('metadata:\n  labels:\n    istio.io/dataplane-mode: ambient\n')).toEqual([
      [
        'missing-field',
        'neither a Kubernetes object (it has no apiVersion and kind) nor a cosi document (its metadata names no type): if the file is a patch or an overlay (kustomize, ytt), render it first or leave it out with --ignore',
      ],
    ]);
  });

  it('names the nearest metadata key', () => {
    const [finding] = findingsOf(
      'metadata:\n  type: vm\n  id: a\n  lables: {}\nspec: { cpus: 1 }\n',
    );
    expect(finding?.[0]).toBe('unknown-key');
    expect(finding?.[1]).toContain('unknown key "lables" in metadata (did you mean "labels"?)');
  });

  it('suggests nothing far from every name', () => {
    expect(didYouMean('zzz', ['cpus', 'image'])).toBeUndefined();
    const vms = [createDefinition({ type: 'VMs.example.org' })];
    expect(didYouMeanType('gadget', vms)).toBeUndefined();
    // A shared suffix does not make names near: only the names before it are compared.
    expect(didYouMeanType('Gadgets.example.org', vms)).toBeUndefined();
    expect(didYouMeanType('VMs.exmple.org', vms)).toBe('VMs.example.org');
  });
});
