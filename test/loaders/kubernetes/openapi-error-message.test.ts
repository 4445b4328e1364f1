import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import type { KubernetesRelease } from '../../../src/loaders/kubernetes/kubernetes-release.js';

/**
 * A custom resource's schema errors as `kubectl apply` prints them (kube-openapi's messages, as
 * apiextensions-apiserver's `kubeOpenAPIResultToFieldErrors` makes them field errors). Expected
 * texts are Istio's validator test data (`pkg/config/validation/testdata/crds/*-invalid.yaml`,
 * `_err`), which runs the API server's own validation code.
 */
function check(spec: string, kubernetesVersion?: KubernetesRelease): string[] {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: authentications.example.com }
spec:
  group: example.com
  names: { kind: Authentication, plural: authentications }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          required: [spec]
          properties:
            spec:
              type: object
              required: [hosts]
              properties:
                hosts: { type: array, minItems: 1, items: { type: string } }
                port: { x-kubernetes-int-or-string: true }
                portLevelMtls: { type: object, minProperties: 1, additionalProperties: { type: string } }
                jwtRules:
                  type: array
                  items:
                    type: object
                    required: [issuer]
                    properties: { issuer: { type: string }, audiences: { type: array, items: { type: string } }, kid: { type: string, maxLength: 1 }, alg: { type: string, maxLength: 5 } }
`;
  const object = `apiVersion: example.com/v1\nkind: Authentication\nmetadata: { name: a }\n${spec}\n`;
  const files = [{ path: 'a.yaml', text: `${crd}---\n${object}` }];
  return loadManifests(
    files,
    kubernetesVersion === undefined ? {} : { kubernetesVersion },
  ).findings.map((f) => `${f.line}:${f.col} ${f.pointer}: ${f.message}`);
}

describe("a custom resource's schema errors in the API server's words", () => {
  it('says a missing required field at the field, placed at its parent', () => {
    expect(check('spec: { jwtRules: [{ audiences: [a] }] }')).toEqual([
      '34:7 /spec/hosts: Required value',
      '34:20 /spec/jwtRules/0/issuer: Required value',
    ]);
    expect(check('')).toEqual(['31:1 /spec: Required value']);
  });

  it('says a wrong type with the type found, a null list item as "null"', () => {
    expect(check('spec: { hosts: [a], jwtRules: [abc, null], portLevelMtls: [] }')).toEqual([
      '34:32 /spec/jwtRules/0: Invalid value: "string": spec.jwtRules[0] in body must be of type object: "string"',
      '34:37 /spec/jwtRules/1: Invalid value: "null": spec.jwtRules[1] in body must be of type object: "null"',
      '34:59 /spec/portLevelMtls: Invalid value: "array": spec.portLevelMtls in body must be of type object: "array"',
    ]);
    expect(check('spec: { hosts: 3 }')).toEqual([
      '34:16 /spec/hosts: Invalid value: "integer": spec.hosts in body must be of type array: "integer"',
    ]);
    // An int-or-string field is typed as both.
    expect(check('spec: { hosts: [a], port: [80] }')).toEqual([
      '34:27 /spec/port: Invalid value: "array": spec.port in body must be of type integer,string: "array"',
    ]);
  });

  it('says too few items or properties with the count found', () => {
    expect(check('spec: { hosts: [], portLevelMtls: {} }')).toEqual([
      '34:16 /spec/hosts: Invalid value: 0: spec.hosts in body should have at least 1 items',
      '34:35 /spec/portLevelMtls: Invalid value: 0: spec.portLevelMtls in body should have at least 1 properties',
    ]);
  });

  it("says too long in the words of the release's field.TooLong", () => {
    const tooLong = 'spec: { hosts: [a], jwtRules: [{ issuer: i, kid: ab, alg: abcdefg }] }';
    const at = (release?: KubernetesRelease): string[] =>
      check(tooLong, release).map((line) => line.replace(/^34:\d+ /, ''));
    // kubernetes 1.34 onwards: a byte, bytes.
    expect(at()).toEqual([
      '/spec/jwtRules/0/kid: Too long: may not be more than 1 byte',
      '/spec/jwtRules/0/alg: Too long: may not be more than 5 bytes',
    ]);
    expect(at('1.34')).toEqual(at());
    // 1.32 and 1.33: bytes, even for one.
    expect(at('1.33')).toEqual([
      '/spec/jwtRules/0/kid: Too long: may not be more than 1 bytes',
      '/spec/jwtRules/0/alg: Too long: may not be more than 5 bytes',
    ]);
    // Up to 1.31: TooLongMaxLength, no unit.
    expect(at('1.31')).toEqual([
      '/spec/jwtRules/0/kid: Too long: may not be longer than 1',
      '/spec/jwtRules/0/alg: Too long: may not be longer than 5',
    ]);
    expect(at('1.28')).toEqual(at('1.31'));
  });
});
