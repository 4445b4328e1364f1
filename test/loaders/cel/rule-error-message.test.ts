import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/** A rule that cannot be evaluated says its message, as the API server's `ruleErrorString` does. */

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

  it('says the error, the rule message when it has one, and the rule', () => {
    expect(
      messages(
        `{ rule: 'has(self.architecture) ? self.version != "" : true', message: ' Version must be set if Architecture is set ' }`,
      ),
    ).toEqual([
      [
        'cel-evaluation-error',
        'the rule could not be evaluated: field not found: version evaluating rule: Version must be set if Architecture is set (rule: has(self.architecture) ? self.version != "" : true)',
      ],
    ]);
    expect(messages(`{ rule: 'self.version != ""' }`)).toEqual([
      [
        'cel-evaluation-error',
        'the rule could not be evaluated: field not found: version (rule: self.version != "")',
      ],
    ]);
  });
});
