import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/** A Widget CRD whose openAPIV3Schema is `schema` (YAML, indented by 8). */
const crd = (schema: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.org }
spec:
  group: example.org
  names: { plural: widgets, kind: Widget }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
${schema}`;

const AT = '/spec/versions/0/schema/openAPIV3Schema';

/** The CRD's findings as [pointer inside the schema, message after the type's name]. */
const problems = (schema: string) => {
  const { definitions, findings } = loadManifests([{ path: 'crd.yaml', text: crd(schema) }]);
  const errors = findings.filter((f) => f.code !== 'empty-input');
  if (errors.length > 0) expect(definitions).toEqual([]);
  return errors.map((f) => [
    f.pointer.replace(AT, ''),
    f.message.replace(/^the schema of \S+ is invalid: /, ''),
  ]);
};

const METADATA_FORBIDDEN =
  'Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified';

describe('a CRD schema is refused where the API server finds it not structural', () => {
  describe('root metadata (validateStructuralMetadataInvariants)', () => {
    it.each([
      ['a labels property', '{ type: object, properties: { labels: { type: object } } }'],
      ['required', '{ type: object, required: [name], properties: { name: { type: string } } }'],
      ['a description', '{ type: object, description: standard object metadata }'],
      ['a maxLength of 0', '{ type: object, maxLength: 0 }'],
      ['a rule', '{ type: object, x-kubernetes-validations: [{ rule: "true" }] }'],
      ['additionalProperties', '{ type: object, additionalProperties: { type: string } }'],
    ])('refuse metadata with %s', (_, metadata) => {
      expect(
        problems(`          type: object
          properties:
            metadata: ${metadata}
`),
      ).toContainEqual(['/properties/metadata', METADATA_FORBIDDEN]);
    });

    it('take metadata typed object, restricting name and generateName, at their zero values', () => {
      expect(
        problems(`          type: object
          properties:
            metadata:
              type: object
              description: ""
              nullable: false
              properties:
                name: { type: string, maxLength: 10 }
                generateName: { type: string }
`),
      ).toEqual([]);
    });

    it('refuse metadata typed other than object, at the root and in an embedded resource', () => {
      expect(
        problems(`          type: object
          properties:
            metadata: { type: string }
            spec:
              type: object
              properties:
                template:
                  type: object
                  x-kubernetes-embedded-resource: true
                  properties:
                    metadata: { type: array, items: { type: string } }
`),
      ).toEqual([
        ['/properties/metadata/type', 'Invalid value: "string": must be object'],
        [
          '/properties/spec/properties/template/properties/metadata/type',
          'Invalid value: "array": must be object',
        ],
      ]);
    });

    it('take a field called metadata deeper down, whatever it says', () => {
      expect(
        problems(`          type: object
          properties:
            spec:
              type: object
              properties:
                metadata: { type: string, description: the widget's own metadata }
`),
      ).toEqual([]);
    });

    it('refuse metadata under a junctor (validateNestedValueValidation)', () => {
      expect(
        problems(`          type: object
          properties:
            spec:
              type: object
              properties:
                a: { type: object }
              anyOf:
                - properties: { metadata: { required: [name] } }
`),
      ).toEqual([
        [
          '/properties/spec/anyOf/0/properties/metadata',
          'Forbidden: must not be specified in a nested context',
        ],
      ]);
    });
  });

  it('refuse kind and apiVersion typed other than string, at the root and in an embedded resource', () => {
    expect(
      problems(`          type: object
          properties:
            kind: { type: integer }
            spec:
              type: object
              x-kubernetes-embedded-resource: true
              properties:
                apiVersion: { type: object }
                kind: { type: string }
`),
    ).toEqual([
      ['/properties/kind/type', 'Invalid value: "integer": must be string'],
      ['/properties/spec/properties/apiVersion/type', 'Invalid value: "object": must be string'],
    ]);
  });

  it('refuse properties beside additionalProperties: false; take additionalProperties: true, or a schema beside properties: {}', () => {
    expect(
      problems(`          type: object
          properties:
            spec:
              type: object
              properties: { a: { type: string } }
              additionalProperties: false
            open:
              type: object
              properties: { a: { type: string } }
              additionalProperties: true
            map:
              type: object
              properties: {}
              additionalProperties: { type: string }
`),
    ).toEqual([
      [
        '/properties/spec/additionalProperties',
        'Forbidden: additionalProperties and properties are mutual exclusive',
      ],
    ]);
  });

  it('refuse an array without items (validateStructuralInvariants)', () => {
    expect(
      problems(`          type: object
          properties:
            tags: { type: array }
            ok: { type: array, items: { type: string } }
`),
    ).toEqual([['/properties/tags', 'items: Required value: must be specified']]);
  });

  it('refuse additionalProperties at the root', () => {
    expect(
      problems(`          type: object
          additionalProperties: { type: string }
`),
    ).toEqual([['/additionalProperties', 'Forbidden: must not be used at the root']]);
  });

  describe('extensions (validateExtensions)', () => {
    it('refuse x-kubernetes-preserve-unknown-fields: false, under a junctor too', () => {
      expect(
        problems(`          type: object
          properties:
            spec:
              type: object
              x-kubernetes-preserve-unknown-fields: false
              not: { x-kubernetes-preserve-unknown-fields: false }
`),
      ).toEqual([
        [
          '/properties/spec/x-kubernetes-preserve-unknown-fields',
          'Invalid value: false: must be true or undefined',
        ],
        [
          '/properties/spec/not/x-kubernetes-preserve-unknown-fields',
          'Invalid value: false: must be true or undefined',
        ],
      ]);
    });

    it('refuse an int-or-string that keeps unknown fields or embeds a resource', () => {
      expect(
        problems(`          type: object
          properties:
            port:
              x-kubernetes-int-or-string: true
              x-kubernetes-preserve-unknown-fields: true
              x-kubernetes-embedded-resource: true
`),
      ).toContainEqual([
        '/properties/port/x-kubernetes-preserve-unknown-fields',
        'Invalid value: true: must be false if x-kubernetes-int-or-string is true',
      ]);
      expect(
        problems(`          type: object
          properties:
            port: { x-kubernetes-int-or-string: true, x-kubernetes-embedded-resource: true }
`),
      ).toContainEqual([
        '/properties/port/x-kubernetes-embedded-resource',
        'Invalid value: true: must be false if x-kubernetes-int-or-string is true',
      ]);
    });
  });

  describe('embedded resources (x-kubernetes-embedded-resource)', () => {
    it('refuse one without properties that does not keep unknown fields', () => {
      expect(
        problems(`          type: object
          properties:
            spec: { type: object, x-kubernetes-embedded-resource: true }
`),
      ).toEqual([
        [
          '/properties/spec',
          'Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
        ],
      ]);
    });

    it('refuse one with additionalProperties, or not typed object', () => {
      expect(
        problems(`          type: object
          properties:
            spec:
              type: object
              x-kubernetes-embedded-resource: true
              x-kubernetes-preserve-unknown-fields: true
              additionalProperties: { type: string }
            raw: { x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true }
`),
      ).toEqual([
        [
          '/properties/spec/additionalProperties',
          'Forbidden: must not be used if x-kubernetes-embedded-resource is set',
        ],
        [
          '/properties/raw',
          'Required value: must be object if x-kubernetes-embedded-resource is true',
        ],
      ]);
    });

    it('take one that keeps unknown fields, or declares its properties', () => {
      expect(
        problems(`          type: object
          properties:
            raw: { type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true }
            pod:
              type: object
              x-kubernetes-embedded-resource: true
              properties:
                metadata: { type: object, properties: { labels: { type: object } } }
                spec: { type: object, x-kubernetes-preserve-unknown-fields: true }
`),
      ).toEqual([]);
    });
  });
});

describe("the root's junctors name only declared properties (validateStructuralCompleteness)", () => {
  it('refuses a property or items the structural part lacks, through nested properties and junctors', () => {
    expect(
      problems(`          type: object
          properties:
            spec: { type: object, properties: { size: { type: integer } } }
            tags: { type: array, items: { type: string } }
          anyOf:
            - properties: { color: { maxLength: 3 } }
            - properties: { spec: { properties: { size: { minimum: 1 }, name: { maxLength: 3 } } } }
          not:
            allOf:
              - properties: { spec: { items: { maxLength: 1 } }, tags: { items: { maxLength: 2 } } }
`),
    ).toEqual([
      [
        '/anyOf/0/properties/color',
        'properties[color]: Required value: because it is defined in anyOf[0].properties[color]',
      ],
      [
        '/anyOf/1/properties/spec/properties/name',
        'properties[spec].properties[name]: Required value: because it is defined in anyOf[1].properties[spec].properties[name]',
      ],
      [
        '/not/allOf/0/properties/spec/items',
        'properties[spec].items: Required value: because it is defined in not.allOf[0].properties[spec].items',
      ],
    ]);
  });

  it("takes a nested node's junctors naming undeclared fields: Go follows only the root's", () => {
    expect(
      problems(`          type: object
          properties:
            spec:
              type: object
              properties: { size: { type: integer } }
              oneOf: [{ properties: { other: { maxLength: 3 } } }]
`),
    ).toEqual([]);
  });
});
