import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * A rule that cannot be evaluated says its message (else its text), as the API server's
 * `ruleErrorString` does, after the type of the node that carries it, as kubectl prints it:
 * `Invalid value: "object": no such key: version evaluating rule: ...`.
 */

const crd = (validation: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
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
              x-kubernetes-validations: [${validation}]
              properties:
                architecture: { type: string }
                version: { type: string }
---
apiVersion: example.com/v1
kind: Widget
metadata: { name: w }
spec: { architecture: arm64 }
`;

describe('a rule that cannot be evaluated', () => {
  const messages = (validation: string) =>
    loadManifests([{ path: 'w.yaml', text: crd(validation) }]).findings.map((f) => [
      f.code,
      f.message,
    ]);

  it('says the error and the rule message when it has one, else the rule', () => {
    expect(
      messages(
        `{ rule: 'has(self.architecture) ? self.version != "" : true', message: ' Version must be set if Architecture is set ' }`,
      ),
    ).toEqual([
      [
        'cel-evaluation-error',
        'Invalid value: "object": no such key: version evaluating rule: Version must be set if Architecture is set',
      ],
    ]);
    expect(messages(`{ rule: 'self.version != ""' }`)).toEqual([
      [
        'cel-evaluation-error',
        'Invalid value: "object": no such key: version evaluating rule: self.version != ""',
      ],
    ]);
  });

  it("says cel-go's error, as the API server does", () => {
    const ruleErrors = (rule: string, spec: string) =>
      loadManifests([{ path: 'n.yaml', text: numbers(rule, spec) }]).findings.map((f) => f.message);
    expect(ruleErrors('self.items[3] > 0', '{ items: [1] }')).toEqual([
      'Invalid value: "object": index out of bounds: 3 evaluating rule: self.items[3] > 0',
    ]);
    expect(ruleErrors('self.count / self.zero > 0', '{ count: 5, zero: 0 }')).toEqual([
      'Invalid value: "object": division by zero evaluating rule: self.count / self.zero > 0',
    ]);
    expect(ruleErrors('self.count % self.zero > 0', '{ count: 5, zero: 0 }')).toEqual([
      'Invalid value: "object": modulus by zero evaluating rule: self.count % self.zero > 0',
    ]);
    expect(ruleErrors('self.count * 9223372036854775807 > 0', '{ count: 5 }')).toEqual([
      'Invalid value: "object": integer overflow evaluating rule: self.count * 9223372036854775807 > 0',
    ]);
    expect(ruleErrors('self.labels["x"] == "y"', '{ labels: {} }')).toEqual([
      'Invalid value: "object": no such key: x evaluating rule: self.labels["x"] == "y"',
    ]);
    expect(ruleErrors('int(self.text) > 0', '{ text: "12abc" }')).toEqual([
      "Invalid value: \"object\": type conversion error from 'string' to 'int' evaluating rule: int(self.text) > 0",
    ]);
    // An int-or-string is dyn: a string reaches _+_ with an int at run time.
    expect(ruleErrors('self.port + 1 > 0', '{ port: http }')).toEqual([
      'Invalid value: "object": \'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: self.port + 1 > 0',
    ]);
  });

  it("says a missing field's error with the rule's message (Strimzi's CelValidationIT)", () => {
    // Strimzi's rack rule, and its test's expected message: the API server's reads
    // "no such key: envVarName evaluating rule: envVarName property is required".
    const rule = `{ rule: 'has(self.type) == false || self.type != "environment-variable" || self.envVarName != ""', message: "envVarName property is required" }`;
    expect(
      loadManifests([
        { path: 'n.yaml', text: numbers(rule, '{ type: environment-variable }', true) },
      ]).findings.map((f) => f.message),
    ).toEqual([
      'Invalid value: "object": no such key: envVarName evaluating rule: envVarName property is required',
    ]);
  });
});

/** A CRD with one rule on spec (a rule, or a whole validation when `whole`) and one object. */
function numbers(rule: string, spec: string, whole = false): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: numbers.example.com }
spec:
  group: example.com
  names: { kind: Numbers, plural: numbers }
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
              x-kubernetes-validations: [${whole ? rule : `{ rule: '${rule}' }`}]
              properties:
                items: { type: array, items: { type: integer } }
                count: { type: integer }
                zero: { type: integer }
                text: { type: string }
                type: { type: string }
                envVarName: { type: string }
                port: { x-kubernetes-int-or-string: true }
                labels: { type: object, additionalProperties: { type: string } }
---
apiVersion: example.com/v1
kind: Numbers
metadata: { name: nums }
spec: ${spec}
`;
}
