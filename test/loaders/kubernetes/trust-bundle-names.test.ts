import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (name: string, signer?: string) =>
  loadManifests(
    [
      {
        path: 'ctb.yaml',
        text: `apiVersion: certificates.k8s.io/v1beta1\nkind: ClusterTrustBundle\nmetadata: {name: "${name}"}\nspec:\n${signer === undefined ? '' : `  signerName: ${signer}\n`}  trustBundle: ""\n`,
      },
    ],
    { kubernetesVersion: '1.33' },
  ).findings.filter((f) => f.code !== 'api-warning');
const at = (f: Finding) => [f.line, f.col, f.pointer, f.message];

describe("a ClusterTrustBundle's name (ValidateClusterTrustBundleName)", () => {
  it("takes a signer's bundle named with the signer's prefix, and one without a signer named as a DNS subdomain", () => {
    expect(load('example.com:signer:bundle', 'example.com/signer')).toEqual([]);
    expect(load('bundle.example.com')).toEqual([]);
  });

  it("refuses a signer's bundle without the signer's prefix", () => {
    expect(load('bundle', 'example.com/signer').map(at)).toEqual([
      [
        3,
        18,
        '/metadata/name',
        'Invalid value: "bundle": ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:',
      ],
    ]);
  });

  it('refuses a colon in the name of a bundle without a signer', () => {
    expect(load('example.com:signer:bundle').map(at)).toEqual([
      [
        3,
        18,
        '/metadata/name',
        'Invalid value: "example.com:signer:bundle": ClusterTrustBundle without signer name must not have ":" in its name',
      ],
    ]);
  });
});
