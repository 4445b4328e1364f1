/**
 * `cosi explain TYPE[.PATH]`: a field's documentation as `kubectl explain` lays it out (the
 * type's header, `FIELD:`, `DESCRIPTION:`, `FIELDS:`), with what kubectl leaves out of it: the
 * enum, the default and the CEL rules.
 */
import { stringify } from 'yaml';
import type { ResourceDefinition } from '../../../engine/resource/definition.js';
import type { FieldTree, SchemaField } from '../../../app/explain/schema-field.js';
import { splitApiVersion } from '../../../loaders/kubernetes/kubernetes-shape.js';
import { escapeControl } from '../escape-control.js';

/** The formats of a field's documentation: `tree` is the text (the lineage's default name). */
export const FIELD_FORMATS = ['tree', 'json', 'yaml'] as const;
export type FieldFormat = (typeof FIELD_FORMATS)[number];

/** What is printed: the type, the field, and with `--recursive` the tree below it. */
export interface FieldDocument {
  readonly definition: ResourceDefinition;
  readonly field: SchemaField;
  readonly tree?: readonly FieldTree[];
}

/** Descriptions are wrapped to this width (after their indentation), as kubectl wraps them. */
const WRAP = 76;

/** A field's documentation in one of the `-o` formats: json and yaml print the schema node. */
export function renderField(document: FieldDocument, format: FieldFormat): string {
  switch (format) {
    case 'tree':
      return renderFieldText(document);
    case 'json':
      return `${JSON.stringify(document.field.schema, undefined, 2)}\n`;
    case 'yaml':
      // A built-in kind's definitions are shared nodes: written out each time, as -o json does,
      // not as YAML anchors and aliases (`items: *a1`).
      return stringify(document.field.schema, { aliasDuplicateObjects: false });
  }
}

/**
 * The text kubectl prints, for people.
 *
 * @example
 * renderFieldText({ definition, field }) // 'GROUP:      cert-manager.io\nKIND:       Certificate\n...'
 */
export function renderFieldText({ definition, field, tree }: FieldDocument): string {
  const out = [...header(definition), ''];
  if (field.path.length > 0) {
    out.push(`FIELD: ${field.name} <${field.type}>${field.required ? ' -required-' : ''}`, '');
  }
  out.push('DESCRIPTION:', ...indent(wrap(field.description || '<empty>'), 4));
  if (field.enum !== undefined) {
    out.push('', 'ENUM:', ...field.enum.map((value) => `    ${scalar(value)}`));
  }
  if (field.default !== undefined) out.push('', 'DEFAULT:', `    ${scalar(field.default.value)}`);
  if (field.rules.length > 0) {
    out.push('', 'RULES:');
    for (const { rule, message, fieldPath } of field.rules) {
      out.push(`    ${rule}`);
      if (message !== undefined) out.push(`      message: ${message}`);
      if (fieldPath !== undefined) out.push(`      fieldPath: ${fieldPath}`);
    }
  }
  if (tree !== undefined) {
    if (tree.length > 0) out.push('', 'FIELDS:', ...treeLines(tree, 2));
  } else if (field.fields.length > 0) {
    out.push('', 'FIELDS:');
    for (const child of field.fields) {
      out.push(`  ${child.name}\t<${child.type}>${child.required ? ' -required-' : ''}`);
      if (child.enum !== undefined) out.push(enumLine(child.enum, 2));
      out.push(...indent(wrap(child.description || '<no description>'), 4), '');
    }
    out.pop();
  }
  return `${out.map(escapeLine).join('\n')}\n`;
}

/** `GROUP` / `KIND` / `VERSION` of a Kubernetes kind (no group for the core one); cosi's type. */
function header(definition: ResourceDefinition): string[] {
  const kubernetes = definition.kubernetes;
  if (kubernetes !== undefined) {
    const { group, version } = splitApiVersion(kubernetes.apiVersion);
    return [
      ...(group === '' ? [] : [`GROUP:      ${group}`]),
      `KIND:       ${kubernetes.kind}`,
      `VERSION:    ${version}`,
    ];
  }
  return [
    `TYPE:       ${definition.type}`,
    ...(definition.aliases.length > 0 ? [`ALIASES:    ${definition.aliases.join(', ')}`] : []),
  ];
}

function treeLines(tree: readonly FieldTree[], depth: number): string[] {
  return tree.flatMap((field) => [
    `${' '.repeat(depth)}${field.name}\t<${field.type}>${field.required ? ' -required-' : ''}`,
    ...(field.enum === undefined ? [] : [enumLine(field.enum, depth)]),
    ...treeLines(field.fields, depth + 2),
  ]);
}

/** The values a list of fields shows of a field's enum: kubectl's first four, then `....`. */
const LISTED_ENUM_VALUES = 4;

/** A field's enum under it in a list of fields: `enum: "", BlockDevice, CharDevice, Directory, ....`. */
function enumLine(values: readonly unknown[], depth: number): string {
  const listed = values.slice(0, LISTED_ENUM_VALUES).map(scalar);
  if (values.length > LISTED_ENUM_VALUES) listed.push('....');
  return `${' '.repeat(depth)}enum: ${listed.join(', ')}`;
}

/** A value of an enum or a default: a string as it is (the empty one as `""`), anything else as JSON. */
function scalar(value: unknown): string {
  if (value === '') return '""';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Paragraphs of a description, each wrapped at word boundaries. */
function wrap(text: string): string[] {
  return text
    .trim()
    .split('\n')
    .flatMap((line) => {
      const lines: string[] = [];
      let current = '';
      for (const word of line.split(/ +/)) {
        if (current !== '' && current.length + 1 + word.length > WRAP) {
          lines.push(current);
          current = word;
        } else current = current === '' ? word : `${current} ${word}`;
      }
      lines.push(current);
      return lines;
    });
}

function indent(lines: readonly string[], by: number): string[] {
  return lines.map((line) => (line === '' ? '' : `${' '.repeat(by)}${line}`));
}

/** A schema is input: its text may hold control characters; the tab after a name is ours. */
function escapeLine(line: string): string {
  return line
    .split('\t')
    .map((part) => escapeControl(part))
    .join('\t');
}
