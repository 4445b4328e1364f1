import { describe, expect, it } from 'vitest';
import { createDefinition } from '../../../src/engine/resource/definition.js';
import { evaluateRules } from '../../../src/loaders/cel/evaluate-rules.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * A rule's failure in the API server's words (`fieldErrorForReason` in apiextensions-apiserver's
 * `schema/cel/validation.go`), which changed in 1.35 (kubernetes#132798): the node's type shown
 * before, a scalar's value and nothing for an object or list from then on. opentelemetry-operator's
 * `tests/e2e-crd-validations/sidecar` expects both against real API servers, by their minor:
 * `spec: Invalid value: "object": the OpenTelemetry Collector mode is set to sidecar, ...` and,
 * from 1.35, `spec: Invalid value: the OpenTelemetry Collector mode is set to sidecar, ...`.
 */

const schema = (rules: string[], reason?: string) => ({
  type: 'object',
  properties: {
    port: {
      type: 'integer',
      'x-kubernetes-validations': [
        { rule: 'self <= 65535', message: 'port must be between 1-65535' },
      ],
    },
    name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() < 4' }] },
    match: {
      type: 'object',
      properties: { waypoint: { type: 'object' }, context: { type: 'string' } },
      'x-kubernetes-validations': rules.map((rule) => ({
        rule,
        message: 'only support waypointMatch when context is WAYPOINT',
        ...(reason === undefined ? {} : { reason }),
      })),
    },
  },
});

const words = (value: unknown, kubernetesVersion: string, reason?: string) =>
  evaluateRules(schema(['!has(self.waypoint)'], reason), value, { kubernetesVersion }).map((v) => [
    v.path,
    v.message,
    v.apiServerMessage,
  ]);

describe("a rule's failure in the API server's words", () => {
  const value = { port: 70000, name: 'long', match: { waypoint: {} } };

  it('shows the type of the node that carries the rule before 1.35 (Istio validator test data)', () => {
    expect(words(value, '1.34')).toEqual([
      [
        '/port',
        'port must be between 1-65535',
        'Invalid value: "integer": port must be between 1-65535',
      ],
      [
        '/name',
        'failed rule: self.size() < 4',
        'Invalid value: "string": failed rule: self.size() < 4',
      ],
      [
        '/match',
        'only support waypointMatch when context is WAYPOINT',
        'Invalid value: "object": only support waypointMatch when context is WAYPOINT',
      ],
    ]);
  });

  it("shows a scalar's value and no object's from 1.35", () => {
    expect(words(value, '1.35').map(([, , apiServer]) => apiServer)).toEqual([
      'Invalid value: 70000: port must be between 1-65535',
      'Invalid value: "long": failed rule: self.size() < 4',
      'Invalid value: only support waypointMatch when context is WAYPOINT',
    ]);
  });

  it("is the field error the rule's reason names", () => {
    const at = (version: string, reason: string) => words(value, version, reason)[2]?.[2];
    expect(at('1.36', 'FieldValueForbidden')).toBe(
      'Forbidden: only support waypointMatch when context is WAYPOINT',
    );
    expect(at('1.36', 'FieldValueRequired')).toBe(
      'Required value: only support waypointMatch when context is WAYPOINT',
    );
    // field.Duplicate takes the value only: the message is not said.
    expect(at('1.34', 'FieldValueDuplicate')).toBe('Duplicate value: "object"');
    expect(at('1.36', 'FieldValueDuplicate')).toBe('Duplicate value');
    expect(at('1.36', 'FieldValueInvalid')).toBe(
      'Invalid value: only support waypointMatch when context is WAYPOINT',
    );
  });

  it('says the message, or the rule, without the spaces around it (ruleMessageOrDefault)', () => {
    const spaced = {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: '  self.a > 1  ', message: '  a too small  ' },
        { rule: '  self.a > 2  ' },
      ],
      properties: { a: { type: 'integer' } },
    };
    expect(
      evaluateRules(spaced, { a: 0 }, { kubernetesVersion: '1.34' }).map((v) => [
        v.message,
        v.apiServerMessage,
      ]),
    ).toEqual([
      ['a too small', 'Invalid value: "object": a too small'],
      ['failed rule: self.a > 2', 'Invalid value: "object": failed rule: self.a > 2'],
    ]);
  });

  it("says a messageExpression's value trimmed, and the message for one it cannot say", () => {
    const said = (messageExpression: string) =>
      evaluateRules(
        {
          type: 'object',
          'x-kubernetes-validations': [
            { rule: 'self.a > 1', message: 'a too small', messageExpression },
          ],
          properties: { a: { type: 'integer' } },
        },
        { a: 0 },
      )[0]?.message;
    expect(said("'  a is ' + string(self.a) + '\\n'")).toBe('a is 0');
    // Empty, a line break inside, or over 5 KiB: evalMessageExpression's errors, and the
    // API server falls back on the message.
    expect(said("'   '")).toBe('a too small');
    expect(said("'a\\nb'")).toBe('a too small');
    expect(said(`'${'x'.repeat(5 * 1024)}'`)).toBe('x'.repeat(5 * 1024));
    expect(said(`'${'x'.repeat(5 * 1024 + 1)}'`)).toBe('a too small');
  });

  it('shows the type for an evaluation error in every release, naming the rule by its message', () => {
    const failing = schema(['self.context == "WAYPOINT"']);
    for (const kubernetesVersion of ['1.34', '1.36']) {
      const [violation] = evaluateRules(failing, { match: {} }, { kubernetesVersion });
      expect(violation?.apiServerMessage).toBe(
        'Invalid value: "object": no such key: context evaluating rule: only support waypointMatch when context is WAYPOINT',
      );
    }
  });
});

describe('where the API server words are said', () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: filters.example.com }
spec:
  group: example.com
  names: { kind: Filter, plural: filters }
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
              x-kubernetes-validations:
                - { rule: 'self.port <= 65535', message: port too big }
                - { rule: 'self.missing > 0' }
              properties:
                port: { type: integer }
                missing: { type: integer }
---
apiVersion: example.com/v1
kind: Filter
metadata: { name: f }
spec: { port: 70000 }
`;

  it('in a Kubernetes object, at the release checked against', () => {
    const messages = (kubernetesVersion?: '1.34') =>
      loadManifests(
        [{ path: 'f.yaml', text: crd }],
        kubernetesVersion && { kubernetesVersion },
      ).findings.map((f) => `${f.pointer}: ${f.message}`);
    expect(messages()).toEqual([
      '/spec: Invalid value: port too big',
      '/spec: Invalid value: "object": no such key: missing evaluating rule: self.missing > 0',
    ]);
    expect(messages('1.34')).toEqual([
      '/spec: Invalid value: "object": port too big',
      '/spec: Invalid value: "object": no such key: missing evaluating rule: self.missing > 0',
    ]);
  });

  it("not in cosi's own documents, which keep cosi's words and name the rule once", () => {
    const definition = createDefinition({
      type: 'Filters.example.org',
      schema: {
        type: 'object',
        'x-kubernetes-validations': [
          { rule: 'self.port <= 65535', message: 'port too big' },
          { rule: 'self.missing > 0' },
        ],
        properties: { port: { type: 'integer' }, missing: { type: 'integer' } },
      },
    });
    const { findings } = loadManifests(
      [
        {
          path: 'f.yaml',
          text: 'metadata: { type: Filters.example.org, id: f }\nspec: { port: 70000 }\n',
        },
      ],
      { definitions: [definition] },
    );
    expect(findings.map((f) => `${f.pointer}: ${f.message}`)).toEqual([
      '/spec: port too big',
      '/spec: the rule could not be evaluated: no such key: missing evaluating rule: self.missing > 0',
    ]);
  });
});
