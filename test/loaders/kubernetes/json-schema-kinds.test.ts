import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import {
  JsonSchemaKinds,
  type SchemaFileRead,
} from '../../../src/loaders/kubernetes/json-schema-kinds.js';
import { parseSchemaLocations } from '../../../src/loaders/kubernetes/schema-location.js';

const CATALOG = 'schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json';

/** A JSON Schema as openapi2jsonschema.py writes a CRD's: closed objects, int-or-string as oneOf. */
const WIDGET_SCHEMA = JSON.stringify(
  {
    description: 'A widget.',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        properties: {
          size: { type: 'integer', minimum: 1, maximum: 9223372036854775807n.toString() },
          port: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          color: { enum: ['red', 'blue'], type: 'string' },
          note: { type: ['string', 'null'] },
        },
        required: ['size'],
        type: 'object',
        additionalProperties: false,
        'x-kubernetes-validations': [{ rule: 'self.size < 100', message: 'too big' }],
      },
    },
    type: 'object',
  },
  null,
  2,
  // The int64 bound as generators write it: a JSON number past 2^53.
).replace('"9223372036854775807"', '9223372036854775807');

/** A catalog in memory that records what was read. */
function catalog(files: Record<string, string>) {
  const reads: string[] = [];
  const read = (path: string): SchemaFileRead => {
    reads.push(path);
    const text = files[path];
    return text === undefined ? { missing: true } : { text };
  };
  return { reads, read };
}

function load(
  manifest: string,
  files: Record<string, string>,
  options: { locations?: string[]; ignoreUnknownKinds?: boolean; extra?: string } = {},
) {
  const { reads, read } = catalog(files);
  const schemaKinds = new JsonSchemaKinds({
    locations: parseSchemaLocations(options.locations ?? [CATALOG]),
    read,
    release: '1.36',
  });
  const result = loadManifests(
    [
      { path: 'app.yaml', text: manifest },
      ...(options.extra === undefined ? [] : [{ path: 'crd.yaml', text: options.extra }]),
    ],
    {
      schemaKinds,
      ...(options.ignoreUnknownKinds === true ? { ignoreUnknownKinds: true } : {}),
    },
  );
  return { ...result, reads };
}

const show = (findings: readonly Finding[]) =>
  findings
    .filter((f) => f.code !== 'empty-input')
    .map((f) => `${f.file}:${f.line}:${f.col} ${f.severity} ${f.code} ${f.message}`);

const widget = (spec: string) => `apiVersion: example.org/v1
kind: Widget
metadata:
  name: w
spec:
${spec}`;

describe('kinds defined by JSON Schemas on disk (--schema-location)', () => {
  it('defines a kind no CRD defines from its schema file, as a CRD would', () => {
    const { resources, findings, reads, registry } = load(widget('  size: 3\n  port: http'), {
      'schemas/example.org/widget_v1.json': WIDGET_SCHEMA,
    });
    expect(show(findings)).toEqual([]);
    expect(reads).toEqual(['schemas/example.org/widget_v1.json']);
    expect(resources.map((r) => r.resource.metadata.type)).toEqual(['Widgets.example.org']);
    expect(registry.resolve('widget').kubernetes).toEqual({
      apiVersion: 'example.org/v1',
      kind: 'Widget',
      namespaced: true,
    });
  });

  it('checks documents against the schema, at their own file:line:col', () => {
    const { findings } = load(widget('  size: 0\n  color: green\n  port: [1]'), {
      'schemas/example.org/widget_v1.json': WIDGET_SCHEMA,
    });
    const errors = findings.filter((f) => f.severity === 'error');
    expect(errors.map((f) => [f.file, f.line, f.pointer])).toEqual([
      // An enum and a type error keep the schema's rules from running, as the API server says.
      ['app.yaml', 1, ''],
      ['app.yaml', 6, '/spec/size'],
      ['app.yaml', 7, '/spec/color'],
      ['app.yaml', 8, '/spec/port'],
    ]);
  });

  it("reads closed objects back as the CRD's: an unknown field is reported as a CRD's, with the nearest name", () => {
    const { findings } = load(widget('  size: 3\n  colour: red'), {
      'schemas/example.org/widget_v1.json': WIDGET_SCHEMA,
    });
    expect(findings.filter((f) => f.code !== 'empty-input')).toMatchObject([
      {
        code: 'schema-violation',
        line: 7,
        pointer: '/spec/colour',
        message: expect.stringMatching(
          /^unknown field "colour" \(did you mean "color"\?\)/,
        ) as string,
      },
    ]);
  });

  it('reads type [T, "null"] as nullable, and runs the CEL rules the schema keeps', () => {
    expect(
      show(
        load(widget('  size: 3\n  note: null'), {
          'schemas/example.org/widget_v1.json': WIDGET_SCHEMA,
        }).findings,
      ),
    ).toEqual([]);
    const { findings } = load(widget('  size: 200'), {
      'schemas/example.org/widget_v1.json': WIDGET_SCHEMA,
    });
    expect(findings.filter((f) => f.severity === 'error')).toMatchObject([
      {
        code: 'cel-violation',
        file: 'app.yaml',
        message: expect.stringContaining('too big') as string,
      },
    ]);
  });

  it('tries the locations in order and reads only the kinds the documents use, once each', () => {
    const { findings, reads } = load(
      `${widget('  size: 3')}\n---\n${widget('  size: 4').replace('name: w', 'name: v')}`,
      { 'b/widget-example-v1.json': WIDGET_SCHEMA, 'b/gadget-example-v1.json': '{' },
      {
        locations: [
          'default',
          'a/{{ .ResourceKind }}.json',
          'b/{{.ResourceKind}}{{.KindSuffix}}.json',
        ],
      },
    );
    expect(show(findings)).toEqual([]);
    expect(reads).toEqual(['a/widget.json', 'b/widget-example-v1.json']);
  });

  it('leaves a kind whose schema is pending (a download) undefined for now, asks no later location, and finds it when asked again', () => {
    const reads: string[] = [];
    let downloaded = false;
    const schemaKinds = new JsonSchemaKinds({
      locations: parseSchemaLocations([
        'https://schemas.example/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json',
        CATALOG,
      ]),
      read: (path) => {
        reads.push(path);
        if (path.startsWith('https://')) {
          return downloaded ? { text: WIDGET_SCHEMA } : { pending: true };
        }
        return { missing: true };
      },
      release: '1.36',
    });
    const manifests = [{ path: 'app.yaml', text: widget('  size: 3') }];
    const first = loadManifests(manifests, { schemaKinds });
    expect(first.resources).toEqual([]);
    expect(reads).toEqual(['https://schemas.example/example.org/widget_v1.json']);
    downloaded = true;
    const second = loadManifests(manifests, { schemaKinds });
    expect(show(second.findings)).toEqual([]);
    expect(second.resources.map((r) => r.resource.metadata.type)).toEqual(['Widgets.example.org']);
    // Found once, read once: a third load asks nothing.
    loadManifests(manifests, { schemaKinds });
    expect(reads).toHaveLength(2);
  });

  it('says which files it looked for when no location has the kind', () => {
    const { findings } = load(widget('  size: 3'), {}, { locations: [CATALOG, 'more'] });
    expect(findings.filter((f) => f.code === 'unknown-type')).toMatchObject([
      {
        line: 2,
        message: expect.stringContaining(
          '(no schema at schemas/example.org/widget_v1.json or more/v1.36.0-standalone/widget-example-v1.json)',
        ) as string,
      },
    ]);
  });

  it('skips a kind no location has under --ignore-unknown-kinds, and checks one a location has', () => {
    const skipped = load(widget('  size: 0'), {}, { ignoreUnknownKinds: true });
    expect(skipped.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(skipped.documents.map((d) => d.status)).toEqual(['skipped']);
    const checked = load(
      widget('  size: 0'),
      { 'schemas/example.org/widget_v1.json': WIDGET_SCHEMA },
      { ignoreUnknownKinds: true },
    );
    expect(checked.documents.map((d) => d.status)).toEqual(['invalid']);
  });

  it('reports a schema file that is not a schema at its line, and points the documents at it', () => {
    const { findings } = load(widget('  size: 3'), {
      'schemas/example.org/widget_v1.json':
        '{\n  "type": "object",\n  "properties": {"spec": {"type": "objekt"}}\n}',
    });
    expect(show(findings)).toEqual([
      expect.stringMatching(
        /^app\.yaml:2:7 error unknown-type kind Widget of example\.org\/v1 is not defined: its schema at schemas\/example\.org\/widget_v1\.json:3:\d+ is invalid/,
      ),
      expect.stringMatching(/^schemas\/example\.org\/widget_v1\.json:3:\d+ error invalid-schema /),
    ]);
  });

  it('reports a schema file that is not JSON as a syntax error in it', () => {
    const { findings } = load(widget('  size: 3'), {
      'schemas/example.org/widget_v1.json': '{"type": "object",',
    });
    expect(findings.map((f) => [f.file, f.code])).toContainEqual([
      'schemas/example.org/widget_v1.json',
      'yaml-syntax',
    ]);
    expect(findings.map((f) => f.code)).toContain('unknown-type');
  });

  it("leaves a CRD's group and kind to the CRD, and built-in kinds to the release", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.org}
spec:
  group: example.org
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
    - name: v2
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object}}
`;
    const { findings, reads } = load(
      `${widget('  size: 3')}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n`,
      { 'schemas/example.org/widget_v1.json': WIDGET_SCHEMA },
      { extra: crd },
    );
    expect(reads).toEqual([]);
    expect(findings.filter((f) => f.code === 'unknown-type')).toMatchObject([
      { message: expect.stringContaining('its CustomResourceDefinition serves v2') as string },
    ]);
  });

  it('names a second version of a kind apart from the first', () => {
    const v2 = widget('  size: 3')
      .replace('example.org/v1', 'example.org/v2')
      .replace('name: w', 'name: x');
    const { resources, findings } = load(`${widget('  size: 3')}\n---\n${v2}`, {
      'schemas/example.org/widget_v1.json': WIDGET_SCHEMA,
      'schemas/example.org/widget_v2.json': WIDGET_SCHEMA,
    });
    expect(show(findings)).toEqual([]);
    expect(resources.map((r) => r.resource.metadata.type)).toEqual([
      'Widgets.example.org',
      'Widgets.v2.example.org',
    ]);
  });
});
