import { describe, expect, it } from 'vitest';
import { fieldTree, lookupField } from '../../../../src/app/explain/schema-field.js';
import {
  createDefinition,
  type ResourceDefinition,
} from '../../../../src/engine/resource/definition.js';
import { renderField, renderFieldText } from '../../../../src/cli/render/explain/explain-field.js';

const gadgets = createDefinition({
  type: 'Gadgets.example.org',
  kubernetes: { apiVersion: 'example.org/v1', kind: 'Gadget', namespaced: true },
  schema: {
    type: 'object',
    description: 'A gadget.',
    properties: {
      spec: {
        type: 'object',
        description: 'What the gadget should be.',
        required: ['size'],
        'x-kubernetes-validations': [
          { rule: 'self.size <= 10', message: 'at most 10', fieldPath: '.size' },
        ],
        properties: {
          size: { type: 'integer', description: 'How big.\nSecond line.' },
          mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
          ports: {
            type: 'array',
            items: { type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true } } },
          },
        },
      },
    },
  },
});

function text(definition: ResourceDefinition, path: string[], recursive = false): string {
  const { found } = lookupField(definition, path);
  if (found === undefined) throw new Error('no such field');
  return renderFieldText({
    definition,
    field: found,
    ...(recursive ? { tree: fieldTree(definition, found) } : {}),
  });
}

describe('renderFieldText', () => {
  it('prints a field as kubectl explain does: the kind, FIELD, DESCRIPTION, the rules, FIELDS with whole descriptions', () => {
    expect(text(gadgets, ['spec'])).toBe(
      [
        'GROUP:      example.org',
        'KIND:       Gadget',
        'VERSION:    v1',
        '',
        'FIELD: spec <Object>',
        '',
        'DESCRIPTION:',
        '    What the gadget should be.',
        '',
        'RULES:',
        '    self.size <= 10',
        '      message: at most 10',
        '      fieldPath: .size',
        '',
        'FIELDS:',
        '  mode\t<string>',
        '  enum: fast, slow',
        '    <no description>',
        '',
        '  ports\t<[]Object>',
        '    <no description>',
        '',
        '  size\t<integer> -required-',
        '    How big.',
        '    Second line.',
        '',
      ].join('\n'),
    );
  });

  it('prints the enum and the default of a leaf', () => {
    const out = text(gadgets, ['spec', 'mode']);
    expect(out).toContain('FIELD: mode <string>\n\nDESCRIPTION:\n    <empty>\n');
    expect(out).toContain('ENUM:\n    fast\n    slow\n');
    expect(out).toContain('DEFAULT:\n    fast\n');
    expect(out).not.toContain('FIELDS:');
  });

  it('shows an empty enum value as "", and four values of an enum in a list of fields, as kubectl', () => {
    const paths = createDefinition({
      type: 'Paths.example.org',
      schema: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['', 'BlockDevice', 'CharDevice', 'Directory', 'File'] },
          mode: { type: 'string', enum: ['', 'r'], default: '' },
        },
      },
    });
    expect(text(paths, ['spec'])).toContain(
      '  kind\t<string>\n  enum: "", BlockDevice, CharDevice, Directory, ....\n',
    );
    expect(text(paths, [], true)).toContain(
      '    kind\t<string>\n    enum: "", BlockDevice, CharDevice, Directory, ....\n    mode\t<string>\n    enum: "", r\n',
    );
    const mode = text(paths, ['spec', 'mode']);
    expect(mode).toContain('ENUM:\n    ""\n    r\n');
    expect(mode).toContain('DEFAULT:\n    ""\n');
  });

  it('prints the tree of names and types with --recursive, and the enum under a field', () => {
    expect(text(gadgets, [], true)).toContain(
      [
        'FIELDS:',
        '  apiVersion\t<string>',
        '  kind\t<string>',
        '  metadata\t<Object>',
        '    annotations\t<map[string]string>',
        '    labels\t<map[string]string>',
        '    name\t<string> -required-',
        '    namespace\t<string>',
        '  spec\t<Object>',
        '    mode\t<string>',
        '    enum: fast, slow',
        '    ports\t<[]Object>',
        '      port\t<IntOrString>',
        '    size\t<integer> -required-',
      ].join('\n'),
    );
  });

  it('heads a cosi type with its type and aliases, and wraps long descriptions', () => {
    const long = createDefinition({
      type: 'Boxes.example.org',
      schema: { type: 'object', description: 'word '.repeat(40) },
    });
    const out = text(long, ['spec']);
    expect(out.startsWith('TYPE:       Boxes.example.org\nALIASES:    box\n')).toBe(true);
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('escapes control characters a schema holds', () => {
    const hostile = createDefinition({
      type: 'Boxes.example.org',
      schema: { type: 'object', description: 'a\u001b[2Jb' },
    });
    expect(text(hostile, ['spec'])).toContain('a\\x1b[2Jb');
  });
});

describe('renderField', () => {
  it('prints the schema node as JSON or YAML', () => {
    const { found } = lookupField(gadgets, ['spec', 'mode']);
    if (found === undefined) throw new Error('no such field');
    expect(JSON.parse(renderField({ definition: gadgets, field: found }, 'json'))).toEqual({
      type: 'string',
      enum: ['fast', 'slow'],
      default: 'fast',
    });
    expect(renderField({ definition: gadgets, field: found }, 'yaml')).toBe(
      'type: string\nenum:\n  - fast\n  - slow\ndefault: fast\n',
    );
  });

  it('writes a node the schema shares (a built-in definition) in full each time, with no YAML aliases', () => {
    const port = { type: 'integer', description: 'A port.' };
    const shared = createDefinition({
      type: 'Links.example.org',
      schema: { type: 'object', properties: { from: port, to: port } },
    });
    const { found } = lookupField(shared, ['spec']);
    if (found === undefined) throw new Error('no such field');
    expect(renderField({ definition: shared, field: found }, 'yaml')).toBe(
      [
        'type: object',
        'properties:',
        '  from:',
        '    type: integer',
        '    description: A port.',
        '  to:',
        '    type: integer',
        '    description: A port.',
        '',
      ].join('\n'),
    );
  });
});
