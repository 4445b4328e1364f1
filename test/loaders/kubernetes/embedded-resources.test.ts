import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/** A CRD of kind Wrapper whose spec embeds resources: one, a list of them, a map of them. */
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: wrappers.example.com
spec:
  group: example.com
  names: { kind: Wrapper, plural: wrappers, singular: wrapper }
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
                object:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
                manifests:
                  type: array
                  items:
                    type: object
                    x-kubernetes-embedded-resource: true
                    x-kubernetes-preserve-unknown-fields: true
                byName:
                  type: object
                  additionalProperties:
                    type: object
                    x-kubernetes-embedded-resource: true
                    x-kubernetes-preserve-unknown-fields: true
                plain:
                  type: object
                  properties:
                    kind: { type: string }
`;

const findingsOf = (documents: string) =>
  loadManifests([
    { path: 'crd.yaml', text: CRD },
    { path: 'wrappers.yaml', text: documents },
  ]).findings.map((f) => [f.line, f.col, f.pointer, f.message]);

describe('resources embedded in a custom resource (objectmeta.Coerce and Validate)', () => {
  it('name their apiVersion and kind, each well formed', () => {
    expect(
      findingsOf(`apiVersion: example.com/v1
kind: Wrapper
metadata: { name: w }
spec:
  object: { metadata: { name: x } }
  manifests:
    - { apiVersion: a/b/c, kind: Config Map }
    - { apiVersion: "", kind: 7 }
  byName:
    one: { apiVersion: v1, kind: "" }
  plain: { kind: "not: a resource" }
`),
    ).toEqual([
      [
        5,
        11,
        '/spec/object/apiVersion',
        'Required value: an embedded resource (x-kubernetes-embedded-resource) names its apiVersion',
      ],
      [
        5,
        11,
        '/spec/object/kind',
        'Required value: an embedded resource (x-kubernetes-embedded-resource) names its kind',
      ],
      [
        7,
        21,
        '/spec/manifests/0/apiVersion',
        'Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      ],
      [
        7,
        34,
        '/spec/manifests/0/kind',
        `Invalid value: "Config Map": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ],
      [8, 21, '/spec/manifests/1/apiVersion', 'Invalid value: "": must not be empty'],
      [8, 31, '/spec/manifests/1/kind', 'Invalid value: 7: must be a string'],
      [10, 34, '/spec/byName/one/kind', 'Invalid value: "": must not be empty'],
    ]);
  });

  it('have metadata that decodes as ObjectMeta and passes ValidateObjectMeta with path-segment names', () => {
    expect(
      findingsOf(`apiVersion: example.com/v1
kind: Wrapper
metadata: { name: w }
spec:
  object:
    apiVersion: v1
    kind: ConfigMap
    metadata: { name: x, labels: { tier: 3 }, finalizers: one, labls: z }
  manifests:
    - apiVersion: v1
      kind: ConfigMap
      metadata:
        name: a/b
        namespace: Team_A
        labels: { "a b": web }
        finalizers: [example.com/x/y]
`).map(([line, col, pointer, message]) => [line, col, pointer, String(message).slice(0, 70)]),
    ).toEqual([
      [
        8,
        42,
        '/spec/object/metadata/labels/tier',
        'metadata.labels["tier"] must be a string, not the number 3: the API se',
      ],
      [
        8,
        59,
        '/spec/object/metadata/finalizers',
        'metadata.finalizers must be a sequence of strings, not the string "one',
      ],
      [
        8,
        64,
        '/spec/object/metadata/labls',
        'unknown field "labls" in metadata (did you mean "labels"?): ObjectMeta',
      ],
      [13, 15, '/spec/manifests/0/metadata/name', `Invalid value: "a/b": may not contain '/'`],
      [
        14,
        20,
        '/spec/manifests/0/metadata/namespace',
        'Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lo',
      ],
      [
        15,
        19,
        '/spec/manifests/0/metadata/labels/a b',
        'Invalid value: "a b": name part must consist of alphanumeric character',
      ],
      [
        16,
        22,
        '/spec/manifests/0/metadata/finalizers/0',
        'Invalid value: "example.com/x/y": a qualified name must consist of alp',
      ],
    ]);
  });

  it('take what the API server takes: any path-segment name, a generateName, no metadata', () => {
    expect(
      findingsOf(`apiVersion: example.com/v1
kind: Wrapper
metadata: { name: w }
spec:
  object:
    apiVersion: apps/v1
    kind: deployment
    metadata:
      name: "Web Front: v2"
      namespace: default
      labels: { app: web, empty: }
      annotations: { note: anything goes }
      finalizers: [example.com/cleanup]
      ownerReferences: [{ apiVersion: v1, kind: ConfigMap, name: c, uid: "1", controller: true }]
      creationTimestamp: null
  manifests:
    - { apiVersion: v1, kind: Secret, metadata: { generateName: "..." } }
    - { apiVersion: /, kind: Namespace }
`),
    ).toEqual([]);
  });

  it("check a custom resource's own metadata as ObjectMeta decodes it, where its CRD says only type: object", () => {
    expect(
      findingsOf(`apiVersion: example.com/v1
kind: Wrapper
metadata:
  name: w
  finalizers: example.com/cleanup
  generation: "2"
  creationTimestamp: 2024-01-02t15:04:05z
  ownerReferences: [{ apiVersion: v1, kind: ConfigMap, name: c, uid: 1 }]
`).map(([line, col, pointer, message]) => [line, col, pointer, String(message).slice(0, 60)]),
    ).toEqual([
      [
        5,
        15,
        '/metadata/finalizers',
        'metadata.finalizers must be a sequence of strings, not the s',
      ],
      [
        6,
        15,
        '/metadata/generation',
        'metadata.generation must be an integer, not the string "2": ',
      ],
      [
        7,
        22,
        '/metadata/creationTimestamp',
        'metadata.creationTimestamp must be an RFC 3339 time, as 2024',
      ],
      [
        8,
        70,
        '/metadata/ownerReferences/0/uid',
        'metadata.ownerReferences[0].uid must be a string, not the nu',
      ],
    ]);
    expect(
      findingsOf(`apiVersion: example.com/v1
kind: Wrapper
metadata:
  name: w
  finalizers: [example.com/cleanup]
  generation: 2
  creationTimestamp: "2024-01-02T15:04:05Z"
  ownerReferences: [{ apiVersion: v1, kind: ConfigMap, name: c, uid: "1" }]
`),
    ).toEqual([]);
  });
});
