import { describe, expect, it } from 'vitest';
import { fieldTree, lookupField, typeName } from '../../../src/app/explain/schema-field.js';
import { ApiVersionError, resolveTypePath } from '../../../src/app/explain/type-path.js';
import { createDefinition, type JsonSchema } from '../../../src/engine/resource/definition.js';
import { DefinitionRegistry } from '../../../src/engine/resource/definition-registry.js';
import { BuiltinKinds } from '../../../src/loaders/kubernetes/builtin-kinds.js';

const widgets = createDefinition({
  type: 'Widgets.example.org',
  schema: {
    type: 'object',
    required: ['size'],
    properties: {
      size: { type: 'integer', description: 'How big.\nIn units.', default: 1 },
      mode: { type: 'string', enum: ['fast', 'slow'] },
      port: { 'x-kubernetes-int-or-string': true },
      tags: { type: 'object', additionalProperties: { type: 'string' } },
      parts: {
        type: 'array',
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      },
    },
  },
});

const gadgets = createDefinition({
  type: 'Gadgets.example.org',
  aliases: ['gd'],
  kubernetes: { apiVersion: 'example.org/v1', kind: 'Gadget', namespaced: true },
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': [{ rule: 'self.a <= self.b', message: 'a is at most b' }],
        properties: {
          a: { type: 'integer' },
          b: { type: 'integer' },
          self: { $ref: '#/properties/spec' },
        },
      },
    },
  },
});

const field = (definition = widgets, path: string[] = []) => {
  const lookup = lookupField(definition, path);
  if (lookup.found === undefined) throw new Error(`no field ${path.join('.')}`);
  return lookup.found;
};

describe('lookupField', () => {
  it("walks a cosi type from the document's root: metadata, then spec with its schema", () => {
    expect(field().fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['metadata', 'Object', true],
      ['spec', 'Object', false],
    ]);
    expect(field(widgets, ['spec', 'size'])).toMatchObject({
      name: 'size',
      type: 'integer',
      required: true,
      description: 'How big.\nIn units.',
      default: { value: 1 },
    });
  });

  it("describes a field as kubectl: its own text, its named type's, then its items' or values'", () => {
    const deployment = BuiltinKinds.of('1.36').find('apps', 'v1', 'Deployment');
    if (deployment === undefined) throw new Error('no Deployment');
    expect(field(deployment, ['spec', 'template']).description).toMatch(
      /^Template describes the pods that will be created\. .*\nPodTemplateSpec describes the data a pod should have when created from a template$/,
    );
    expect(field(deployment, ['spec', 'template', 'spec', 'containers']).description).toMatch(
      /\nA single application container that you want to run within a pod\.$/,
    );
    // The type's text alone where the field has none of its own; a CRD's items' text after the field's.
    const listed = createDefinition({
      type: 'Lists.example.org',
      schema: {
        type: 'object',
        properties: {
          entries: {
            type: 'array',
            description: 'The entries.',
            items: { type: 'object', description: 'One entry.', properties: {} },
          },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    });
    expect(field(listed, ['spec', 'entries']).description).toBe('The entries.\nOne entry.');
    expect(field(listed, ['spec', 'entries']).fields).toEqual([]);
    expect(field(listed, ['spec', 'labels']).description).toBe('');
  });

  it('gives the enum, and lists the fields of an array by its items', () => {
    expect(field(widgets, ['spec', 'mode']).enum).toEqual(['fast', 'slow']);
    const parts = field(widgets, ['spec', 'parts']);
    expect(parts.type).toBe('[]Object');
    expect(parts.fields).toEqual([
      { name: 'name', type: 'string', required: true, description: '' },
    ]);
    expect(field(widgets, ['spec', 'parts', 'name']).required).toBe(true);
  });

  it("walks a Kubernetes kind's schema from the whole document, and keeps its CEL rules", () => {
    expect(field(gadgets).fields.map((f) => f.name)).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'spec',
    ]);
    // apiVersion, kind and metadata are described even where the CRD does not.
    expect(field(gadgets, ['apiVersion']).description).toMatch(/^APIVersion defines/);
    expect(field(gadgets, ['spec']).rules).toEqual([
      { rule: 'self.a <= self.b', message: 'a is at most b' },
    ]);
  });

  it('follows a local $ref', () => {
    expect(field(gadgets, ['spec', 'self', 'a']).type).toBe('integer');
  });

  it('says which fields exist where a path leaves the schema, with the nearest', () => {
    expect(lookupField(widgets, ['spec', 'sise']).missing).toEqual({
      parent: ['spec'],
      name: 'sise',
      parentType: 'Object',
      known: ['mode', 'parts', 'port', 'size', 'tags'],
      suggestion: 'size',
    });
    expect(lookupField(widgets, ['spec', 'mode', 'x']).missing).toMatchObject({
      parentType: 'string',
      known: [],
    });
  });
});

describe('typeName', () => {
  it.each<[string, JsonSchema, string]>([
    ['a string', { type: 'string' }, 'string'],
    [
      'an array of objects',
      { type: 'array', items: { type: 'object', properties: {} } },
      '[]Object',
    ],
    [
      'a map of strings',
      { type: 'object', additionalProperties: { type: 'string' } },
      'map[string]string',
    ],
    ['an int-or-string', { 'x-kubernetes-int-or-string': true }, 'IntOrString'],
    ['a nullable integer', { type: ['integer', 'null'] }, 'integer'],
    ['anything kept', { 'x-kubernetes-preserve-unknown-fields': true }, 'Object'],
    ['nothing said', {}, 'any'],
  ])('names %s as kubectl does', (_, schema, name) => {
    expect(typeName(schema, schema)).toBe(name);
  });

  it("names a built-in kind's field by the definition its $ref named, as kubectl does", () => {
    const deployment = BuiltinKinds.of('1.36').find('apps', 'v1', 'Deployment');
    if (deployment === undefined) throw new Error('no Deployment');
    const types = (path: string): Record<string, string> => {
      const { found } = lookupField(deployment, path.split('.'));
      if (found === undefined) throw new Error(`no ${path}`);
      return Object.fromEntries([
        ['.', found.type],
        ...found.fields.map((field): [string, string] => [field.name, field.type]),
      ]);
    };
    expect(types('spec.template')).toEqual({
      '.': 'PodTemplateSpec',
      metadata: 'ObjectMeta',
      spec: 'PodSpec',
    });
    expect(types('spec.template.spec')).toMatchObject({
      containers: '[]Container',
      nodeSelector: 'map[string]string',
      affinity: 'Affinity',
    });
    expect(types('spec.template.spec.containers.resources')).toMatchObject({
      limits: 'map[string]Quantity',
      claims: '[]ResourceClaim',
    });
    expect(types('spec.strategy.rollingUpdate')).toMatchObject({ maxSurge: 'IntOrString' });
    // A named type that is a string is printed as one, as kubectl prints it.
    expect(types('metadata')).toMatchObject({
      creationTimestamp: 'string',
      managedFields: '[]ManagedFieldsEntry',
    });
  });
});

describe('fieldTree', () => {
  it('is every field below, each with its own, and a recursive $ref once', () => {
    const tree = fieldTree(gadgets, field(gadgets, ['spec']));
    expect(tree.map((f) => f.name)).toEqual(['a', 'b', 'self']);
    // `self` is spec again: shown once below itself, then not again.
    expect(tree[2]?.fields.map((f) => f.name)).toEqual(['a', 'b', 'self']);
    expect(tree[2]?.fields[2]?.fields).toEqual([]);
  });

  it("stops after --max-depth levels, as kubectl's (0: every level)", () => {
    const spec = field(gadgets, ['spec']);
    expect(fieldTree(gadgets, spec, 1).map((f) => f.fields)).toEqual([[], [], []]);
    const two = fieldTree(gadgets, spec, 2);
    expect(two[2]?.fields.map((f) => f.name)).toEqual(['a', 'b', 'self']);
    expect(two[2]?.fields[2]?.fields).toEqual([]);
    expect(fieldTree(gadgets, spec, 0)).toEqual(fieldTree(gadgets, spec));
  });
});

describe('resolveTypePath', () => {
  const registry = new DefinitionRegistry([widgets, gadgets]);

  it('splits where the longest dotted start names a type', () => {
    expect(resolveTypePath(registry, 'widgets.example.org.spec.size')).toMatchObject({
      definition: { type: 'Widgets.example.org' },
      path: ['spec', 'size'],
    });
    expect(resolveTypePath(registry, 'widget.spec').path).toEqual(['spec']);
  });

  it('trims a trailing dot, as kubectl does', () => {
    expect(resolveTypePath(registry, 'widget.spec.').path).toEqual(['spec']);
    expect(resolveTypePath(registry, 'widget.').path).toEqual([]);
  });

  it("takes a Kubernetes kind's name", () => {
    expect(resolveTypePath(registry, 'Gadget.spec.a').definition.type).toBe('Gadgets.example.org');
  });

  it('throws an unknown-type error naming the first segment', () => {
    expect(() => resolveTypePath(registry, 'widgit.spec')).toThrow(/"widgit" is not registered/);
  });
});

describe('resolveTypePath with --api-version', () => {
  const kind = (apiVersion: string, type: string, aliases: string[] = []) =>
    createDefinition({
      type,
      ...(aliases.length > 0 ? { aliases } : { skipAutomaticAliases: true }),
      kubernetes: { apiVersion, kind: 'Gateway', namespaced: true },
      schema: { type: 'object', properties: { spec: { type: 'object' } } },
    });
  const registry = new DefinitionRegistry([
    kind('gateway.networking.k8s.io/v1', 'Gateways.gateway.networking.k8s.io', ['gateway']),
    kind('gateway.networking.k8s.io/v1beta1', 'Gateways.v1beta1.gateway.networking.k8s.io'),
    kind('networking.istio.io/v1', 'Gateways.networking.istio.io', ['gateway']),
  ]);
  const builtins = BuiltinKinds.of('1.36');
  const apiVersionOf = (argument: string, apiVersion: string) =>
    resolveTypePath(registry, argument, builtins, apiVersion).definition.kubernetes?.apiVersion;

  it('takes a built-in kind in a version that is not its preferred one, in another group too', () => {
    expect(resolveTypePath(registry, 'hpa.spec', builtins).definition.kubernetes?.apiVersion).toBe(
      'autoscaling/v2',
    );
    expect(apiVersionOf('hpa.spec', 'autoscaling/v1')).toBe('autoscaling/v1');
    expect(apiVersionOf('event', 'events.k8s.io/v1')).toBe('events.k8s.io/v1');
    expect(resolveTypePath(registry, 'hpa.spec', builtins, 'autoscaling/v1').path).toEqual([
      'spec',
    ]);
  });

  it("takes a CRD's other served version, and picks among kinds that share a name by group", () => {
    expect(
      apiVersionOf('gateways.gateway.networking.k8s.io.spec', 'gateway.networking.k8s.io/v1beta1'),
    ).toBe('gateway.networking.k8s.io/v1beta1');
    expect(() => resolveTypePath(registry, 'gateway.spec', builtins)).toThrow(/is ambiguous/);
    expect(apiVersionOf('gateway.spec', 'networking.istio.io/v1')).toBe('networking.istio.io/v1');
    expect(apiVersionOf('gateway.spec', 'gateway.networking.k8s.io/v1beta1')).toBe(
      'gateway.networking.k8s.io/v1beta1',
    );
  });

  it('says where the kind is served when it is not at that version, and refuses a cosi type', () => {
    expect(() => apiVersionOf('hpa', 'autoscaling/v9')).toThrow(
      new ApiVersionError(
        'no HorizontalPodAutoscaler is served at autoscaling/v9; HorizontalPodAutoscaler is served at autoscaling/v1, autoscaling/v2',
      ),
    );
    expect(() => apiVersionOf('hpa', 'a/b/c')).toThrow(/expected GROUP\/VERSION/);
    expect(() =>
      resolveTypePath(new DefinitionRegistry([widgets]), 'widget', builtins, 'v1'),
    ).toThrow(/Widgets\.example\.org is a cosi type, not a Kubernetes kind/);
  });
});
