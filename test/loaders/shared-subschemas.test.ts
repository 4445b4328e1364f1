import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { JsonSchema } from '../../src/engine/resource/definition.js';
import { correlate, ratchetSchemaProblems } from '../../src/loaders/ratcheting.js';
import { createSchemaCompiler } from '../../src/loaders/schema-compiler.js';
import {
  hasSharedSubschemas,
  shareRepeatedSubschemas,
} from '../../src/loaders/shared-subschemas.js';

/** A probe, repeated in a container: shared too. */
const PROBE = `{type: object, additionalProperties: false, required: [port], properties: {path: {type: string}, port: {type: integer}, periodSeconds: {type: integer, minimum: 1}}}`;

/** A container as controller-gen writes it, big enough to be shared. */
const CONTAINER = `
type: object
required: [name]
additionalProperties: false
properties:
  name: {type: string, maxLength: 63}
  livenessProbe: ${PROBE}
  readinessProbe: ${PROBE}
  image: {type: string}
  args: {type: array, items: {type: string}}
  port:
    anyOf: [{type: integer}, {type: string}]
    x-kubernetes-int-or-string: true
  resources:
    type: object
    properties:
      limits: {type: object, additionalProperties: {type: string}}
`;

/** A workload whose containers and init containers share one schema. */
const WORKLOAD = parse(`
type: object
properties:
  spec:
    type: object
    properties:
      main: ${JSON.stringify(parse(CONTAINER))}
      containers: {type: array, items: ${JSON.stringify(parse(CONTAINER))}}
      initContainers: {type: array, maxItems: 8, items: ${JSON.stringify(parse(CONTAINER))}}
`) as JsonSchema;

const compiler = createSchemaCompiler();

/** A schema read loosely, to look into. */
interface Node {
  readonly properties: Record<string, Node>;
  readonly items: Node;
  readonly definitions: Record<string, Node>;
}

/** YAML read as a loose schema. */
const read = (text: string): Node => parse(text) as Node;

function problemsOf(schema: JsonSchema, value: unknown): string[] {
  const { validate, problems } = compiler.compile(schema);
  expect(problems).toEqual([]);
  return (validate?.(value) ?? []).map((p) => `${p.path} ${p.keyword}: ${p.message}`);
}

describe('shareRepeatedSubschemas', () => {
  it('writes a subschema repeated at several fields once, referred to from each', () => {
    const shared = shareRepeatedSubschemas(WORKLOAD) as unknown as Node;
    expect(hasSharedSubschemas(shared)).toBe(true);
    // The container, and the probe in it.
    expect(Object.keys(shared.definitions).sort()).toEqual(['shared-0', 'shared-1']);
    const spec = shared.properties.spec?.properties;
    expect(spec?.main).toEqual({ $ref: '#/definitions/shared-0' });
    expect(spec?.containers?.items).toEqual({ $ref: '#/definitions/shared-0' });
    expect(spec?.initContainers?.items).toEqual({ $ref: '#/definitions/shared-0' });
    expect(shared.definitions['shared-1']).toEqual(read(PROBE));
    const container = read(CONTAINER);
    const probe = { $ref: '#/definitions/shared-1' };
    expect(shared.definitions['shared-0']).toEqual({
      ...container,
      properties: { ...container.properties, livenessProbe: probe, readinessProbe: probe },
    });
    // The schema given is left as it was.
    expect(hasSharedSubschemas(WORKLOAD)).toBe(false);
    const given = WORKLOAD as unknown as Node;
    expect(given.properties.spec?.properties.main?.properties.name).toBeDefined();
  });

  it('leaves schemas alone when nothing repeats, what repeats is small, or they refer to schemas themselves', () => {
    const small = parse(
      `{type: object, properties: {a: {type: string}, b: {type: string}}}`,
    ) as JsonSchema;
    expect(shareRepeatedSubschemas(small)).toBeUndefined();
    const once = parse(`{type: object, properties: {a: ${PROBE}}}`) as JsonSchema;
    expect(shareRepeatedSubschemas(once)).toBeUndefined();
    const withRef = { ...WORKLOAD, definitions: { x: { type: 'string' } } } as JsonSchema;
    expect(shareRepeatedSubschemas(withRef)).toBeUndefined();
  });

  it('shares fields only, never a branch of anyOf and the like, and only what is equal in key order too', () => {
    const probe = parse(PROBE) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(probe).reverse());
    const schema = {
      type: 'object',
      properties: { a: probe, b: reordered },
      anyOf: [probe, probe],
    } as JsonSchema;
    expect(shareRepeatedSubschemas(schema)).toBeUndefined();
  });

  it('checks a value as the schema written out does: the same problems, in the same order', () => {
    const value: unknown = parse(`
spec:
  main: {image: 3, port: 1.5, extra: x, livenessProbe: {periodSeconds: 0, x: 1}}
  containers: [{name: a, resources: {limits: {cpu: 1}}}, {args: [1]}]
  initContainers: [{name: ${'n'.repeat(70)}, port: true}]
`);
    const written = problemsOf(WORKLOAD, value);
    // A copy with definitions of its own is compiled as it is written (no sharing in it).
    const asWritten = createSchemaCompiler().compile({
      ...WORKLOAD,
      definitions: {},
    });
    expect(written).toEqual(
      (asWritten.validate?.(value) ?? []).map((p) => `${p.path} ${p.keyword}: ${p.message}`),
    );
    expect(written).toContain('/spec/main/extra additionalProperties: unknown field "extra"');
    expect(written).toContain("/spec/containers/1 required: must have required property 'name'");
    expect(written).toContain('/spec/containers/0/resources/limits/cpu type: must be string');
  });

  it('names the fields of the shared subschema an unknown field is not, at any depth it is used', () => {
    expect(
      problemsOf(WORKLOAD, { spec: { initContainers: [{ name: 'a', imagee: 'x' }] } }),
    ).toEqual([
      '/spec/initContainers/0/imagee additionalProperties: unknown field "imagee" (did you mean "image"?)',
    ]);
    expect(problemsOf(WORKLOAD, { spec: { main: { name: 'a', resourses: {} } } })).toEqual([
      '/spec/main/resourses additionalProperties: unknown field "resourses" (did you mean "resources"?)',
    ]);
    const probe = { port: 80, pathh: '/' };
    expect(
      problemsOf(WORKLOAD, { spec: { containers: [{ name: 'a', readinessProbe: probe }] } }),
    ).toEqual([
      '/spec/containers/0/readinessProbe/pathh additionalProperties: unknown field "pathh" (did you mean "path"?)',
    ]);
  });

  it('gives a problem inside an anyOf of a shared subschema to the node that carries it, for ratcheting', () => {
    const { validate } = compiler.compile(WORKLOAD);
    const previous: unknown = parse(`spec: {main: {name: a, image: x, port: 1.5}}`);
    const unchanged: unknown = parse(`spec: {main: {name: a, image: y, port: 1.5}}`);
    const reported = (value: unknown): string[] => {
      const problems = validate?.(value) ?? [];
      expect(problems.filter((p) => p.keyword !== 'x-kubernetes-int-or-string')).toHaveLength(3);
      for (const problem of problems) expect(problem.owner ?? problem.path).toBe('/spec/main/port');
      return ratchetSchemaProblems(problems, correlate(value, previous, WORKLOAD), () => []).map(
        (p) => `${p.path} ${p.keyword}`,
      );
    };
    // The port is unchanged: its problems ratchet, although its container changed.
    expect(reported(unchanged)).toEqual([]);
    const moved: unknown = parse(`spec: {main: {name: a, image: x, port: 2.5}}`);
    expect(reported(moved)).toEqual([
      '/spec/main/port type',
      '/spec/main/port type',
      '/spec/main/port anyOf',
      '/spec/main/port x-kubernetes-int-or-string',
    ]);
  });
});
