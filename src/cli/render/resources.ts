import { outputYaml } from '../../app/output-yaml.js';
import { CliError, EXIT } from '../exit-codes.js';
import {
  addressesItems,
  collectTemplateValues,
  executeTemplate,
  JsonPathError,
  JsonPathSyntaxError,
  parseTemplate,
  type JsonPathTemplate,
} from '../../loaders/kubernetes/jsonpath.js';
import { toDocument, type DocumentOptions } from '../../app/output-document.js';
import type { ResourceGroup } from '../../app/resource-query.js';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import { ChunkedWriter, collectChunks, type WriteChunk } from './chunked-writer.js';
import { resourceTableColumns } from './resource-table.js';
import { renderTable, writeTable } from './table.js';
import { relaxedJsonPath } from './relaxed-jsonpath.js';

/** The output formats of commands that print resources. */
export type ResourceFormat =
  | 'table'
  | 'wide'
  | 'yaml'
  | 'json'
  | 'name'
  | { readonly jsonpath: string }
  | { readonly jsonpathAsJson: string }
  | { readonly customColumns: readonly CustomColumn[] };

/** A column of `-o custom-columns=NAME:PATH,...`: a header and a JSONPath into the document. */
export interface CustomColumn {
  readonly name: string;
  readonly path: string;
}

/**
 * The `-o custom-columns=NAME:.path,...` format, as kubectl takes it (a path with or without the
 * braces or the leading dot), its templates checked now.
 * @throws CliError (usage) for a malformed spec or template.
 */
export function customColumnsFormat(spec: string): ResourceFormat {
  const columns = spec.split(',').map((part): CustomColumn => {
    const colon = part.indexOf(':');
    const name = part.slice(0, colon).trim();
    const path = part.slice(colon + 1).trim();
    if (colon < 0 || name === '' || path === '') {
      throw new CliError(
        `-o custom-columns: expected NAME:PATH[,NAME:PATH...], got ${JSON.stringify(spec)}`,
      );
    }
    const template = relaxedJsonPath(path, '-o custom-columns');
    parseJsonPath(template, '-o custom-columns');
    return { name, path: template };
  });
  return { customColumns: columns };
}

/**
 * The `-o jsonpath=TEMPLATE` format, its template checked now so a malformed one fails before
 * the run starts.
 *
 * @throws CliError (usage) naming the template and what is wrong with it.
 */
export function jsonPathFormat(template: string): ResourceFormat {
  parseJsonPath(template);
  return { jsonpath: template };
}

/** `-o jsonpath-as-json=TEMPLATE`: the values the template reaches, as one JSON array. */
export function jsonPathAsJsonFormat(template: string): ResourceFormat {
  parseJsonPath(template);
  return { jsonpathAsJson: template };
}

function parseJsonPath(template: string, flag = '-o jsonpath'): JsonPathTemplate {
  try {
    return parseTemplate(template);
  } catch (error) {
    if (error instanceof JsonPathSyntaxError) {
      throw new CliError(`${flag}: bad template ${JSON.stringify(template)}: ${error.message}`);
    }
    throw error;
  }
}

/** How resources are printed. */
export interface RenderOptions extends DocumentOptions {
  /** One resource was asked for by id: JSON prints it as an object, not a list of one. */
  readonly single?: boolean;
  /** `--no-headers`: tables without their header line. */
  readonly noHeaders?: boolean;
  /** `--show-labels`: tables end with a LABELS column (`-o wide` has it already). */
  readonly showLabels?: boolean;
}

/** Prints groups of resources in a format. Deterministic: groups and resources come sorted. */
export function renderResources(
  groups: readonly ResourceGroup[],
  format: ResourceFormat,
  options: RenderOptions = {},
): string {
  return collectChunks((write) => writeResources(groups, format, write, options));
}

/**
 * {@link renderResources}, written in chunks to `write` as it is made (tables, names, YAML and
 * JSON resource by resource): a command that prints 150,000 resources never holds their text
 * whole.
 */
export function writeResources(
  groups: readonly ResourceGroup[],
  format: ResourceFormat,
  write: WriteChunk,
  options: RenderOptions = {},
): void {
  const out = new ChunkedWriter(write);
  writeFormat(groups, format, out, options);
  out.flush();
}

function writeFormat(
  groups: readonly ResourceGroup[],
  format: ResourceFormat,
  out: ChunkedWriter,
  options: RenderOptions,
): void {
  if (format === 'table' || format === 'wide') {
    writeResourceTables(groups, out, format === 'wide', options);
    return;
  }
  if (format === 'name') {
    for (const g of groups) {
      const prefix = namePrefix(g.resources[0]?.metadata.type ?? '', g.definition);
      for (const r of g.resources) out.push(`${prefix}/${r.metadata.id}\n`);
    }
    return;
  }
  const documents = function* (): Generator {
    for (const g of groups) {
      const printed =
        g.ownerKinds === undefined ? options : { ...options, ownerKinds: g.ownerKinds };
      for (const r of g.resources) yield toDocument(r, g.definition, printed);
    }
  };
  if (format === 'yaml') {
    for (const d of documents()) {
      out.push(`---\n${outputYaml(d)}`);
    }
    return;
  }
  if (format === 'json') {
    writeJson([...documents()], out, options.single === true);
    return;
  }
  if ('customColumns' in format) {
    out.push(renderCustomColumns(format.customColumns, [...documents()], options));
    return;
  }
  if ('jsonpathAsJson' in format) {
    out.push(renderJsonPathAsJson(format.jsonpathAsJson, [...documents()]));
    return;
  }
  out.push(renderJsonPath(format.jsonpath, [...documents()]));
}

/**
 * As kubectl prints a list answer: one object asked for by id is the object itself; anything else
 * (several, one of a listed type, none) is a `kind: List` whose `items` are the documents, so
 * `jq '.items[]'` reads it as it reads kubectl's, and the `.items` a `-o jsonpath` template
 * addresses is the one this prints. `JSON.stringify(list, null, 2)`, written a document at a time:
 * an item is its own stringification indented two levels (a JSON string holds no raw line feed,
 * so indenting after each line feed indents exactly the lines).
 */
function writeJson(documents: readonly unknown[], out: ChunkedWriter, single: boolean): void {
  if (single && documents.length === 1) {
    out.push(`${JSON.stringify(documents[0], null, 2)}\n`);
    return;
  }
  const end = '  "kind": "List",\n  "metadata": {\n    "resourceVersion": ""\n  }\n}\n';
  if (documents.length === 0) {
    out.push(`{\n  "apiVersion": "v1",\n  "items": [],\n${end}`);
    return;
  }
  out.push('{\n  "apiVersion": "v1",\n  "items": [\n');
  documents.forEach((d, i) => {
    const text = JSON.stringify(d, null, 2).replaceAll('\n', '\n    ');
    out.push(`    ${text}${i === documents.length - 1 ? '\n' : ',\n'}`);
  });
  out.push(`  ],\n${end}`);
}

/**
 * As talosctl, the template runs on each resource, one line each; as kubectl, a template that
 * starts by addressing `.items` runs once on a List of them all. Missing keys print nothing, as
 * kubectl's default `--allow-missing-template-keys`. Each output ends in one newline: a template
 * that ends in `{"\n"}` (the habit kubectl's missing newline taught) gets no blank line.
 */
function renderJsonPath(source: string, documents: readonly unknown[]): string {
  const template = parseJsonPath(source);
  const options = { allowMissingKeys: true };
  const line = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
  try {
    if (addressesItems(template)) {
      return line(executeTemplate(template, { kind: 'List', items: documents }, options));
    }
    return documents.map((d) => line(executeTemplate(template, d, options))).join('');
  } catch (error) {
    if (error instanceof JsonPathError) {
      throw new CliError(
        `-o jsonpath: cannot run template ${JSON.stringify(source)}: ${error.message}`,
        EXIT.findings,
      );
    }
    throw error;
  }
}

/**
 * kubectl's `-o jsonpath-as-json`: every value the template reaches, over every resource (or once
 * on the List, for a template that addresses `.items`), as one JSON array indented as kubectl's.
 */
function renderJsonPathAsJson(source: string, documents: readonly unknown[]): string {
  const template = parseJsonPath(source);
  const options = { allowMissingKeys: true };
  try {
    const values = addressesItems(template)
      ? collectTemplateValues(template, { kind: 'List', items: documents }, options)
      : documents.flatMap((d) => collectTemplateValues(template, d, options));
    return `${JSON.stringify(values, null, 4)}\n`;
  } catch (error) {
    if (error instanceof JsonPathError) {
      throw new CliError(
        `-o jsonpath-as-json: cannot run template ${JSON.stringify(source)}: ${error.message}`,
        EXIT.findings,
      );
    }
    throw error;
  }
}

/** One table of the given columns over every resource; an empty cell reads `<none>`, as kubectl's. */
function renderCustomColumns(
  columns: readonly CustomColumn[],
  documents: readonly unknown[],
  options: RenderOptions,
): string {
  const templates = columns.map((c) => parseTemplate(c.path));
  const rows = documents.map((d) =>
    templates.map((t) => executeTemplate(t, d, { allowMissingKeys: true }) || '<none>'),
  );
  const table = renderTable(
    columns.map((c) => c.name),
    rows,
    { noHeader: options.noHeaders === true },
  );
  return table.endsWith('\n') ? table : `${table}\n`;
}

/**
 * One table per type, as `talosctl get`: NAMESPACE TYPE ID VERSION OWNER PHASE + print columns;
 * `wide` adds the labels and the finalizers, as kubectl's `-o wide` adds what does not fit.
 */
function writeResourceTables(
  groups: readonly ResourceGroup[],
  out: ChunkedWriter,
  wide: boolean,
  options: RenderOptions,
): void {
  let first = true;
  for (const group of groups) {
    if (group.resources.length === 0) continue;
    // A blank line between tables; none without headers, as kubectl, so each line is a row.
    if (!first && options.noHeaders !== true) out.push('\n');
    first = false;
    const { header, row } = resourceTableColumns(group, wide, options);
    // Made as the table reads them (twice: widths, then lines), not held.
    const rows = {
      *[Symbol.iterator]() {
        for (const r of group.resources) yield row(r);
      },
    };
    writeTable(header, rows, out, { noHeader: options.noHeaders === true });
  }
}

/**
 * What `-o name` puts before a resource's id: a Kubernetes kind as kubectl names it (its kind in
 * lower case, then its group: `deployment.apps`, `configmap`), a cosi type in lower case
 * (`vms.example.org`).
 */
function namePrefix(type: string, definition: ResourceDefinition | undefined): string {
  const kubernetes = definition?.kubernetes;
  if (kubernetes === undefined) return type.toLowerCase();
  const slash = kubernetes.apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : kubernetes.apiVersion.slice(0, slash);
  const kind = kubernetes.kind.toLowerCase();
  return group === '' ? kind : `${kind}.${group}`;
}
