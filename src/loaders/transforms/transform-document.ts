/**
 * `Transforms.cosi.dev` documents: a transform controller declared in YAML, with no TypeScript.
 *
 * ```yaml
 * metadata:
 *   type: Transforms.cosi.dev
 *   id: nic-per-vm            # the controller's name
 * spec:
 *   input:
 *     type: VMs.example.org   # any name of the type
 *     labels: { tier: web }   # optional: only inputs with these labels
 *   output:
 *     type: NICs.example.org
 *     id: ${self.metadata.id}-nic
 *     labels: { vm: '${self.metadata.id}' }   # optional
 *     spec:
 *       vm: ${self.metadata.id}
 *       mtu: ${self.spec.mtu}
 *   includeWhen:              # optional: all must hold
 *     - ${self.spec.network}
 * ```
 *
 * Expressions are CEL over the input (`self`: `metadata` and `spec`), in `${...}` templates as
 * in kro (standalone keeps the expression's type, `"a-${e}"` needs strings). Read in the first
 * pass of a load beside the definitions and compiled once every type is known: an unknown type,
 * an expression that does not parse, a reference to anything but `self`, a string template fed
 * a non-string input field and a standalone input field whose type does not fit the output field
 * are refused at the expression's `file:line:col` (`transform-*` findings).
 */

import type { JsonSchema, ResourceDefinition } from '../../engine/resource/definition.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../../engine/resource/definition-registry.js';
import type { DeclaredTransform } from '../../controllers/declared-transform.js';
import type { GraphExpression, TemplateField } from '../../controllers/template-rendering.js';
import type { CelRules } from '../cel/cel-rule-engine.js';
import type { TakenTransform } from '../transform-type.js';
import type { DocumentReport } from '../document-report.js';
import { formatLocation, type FindingCode } from '../finding.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject, type ManifestHeader } from '../manifest-document.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import type { BuiltinKinds } from '../kubernetes/builtin-kinds.js';
import { applyDefaults } from '../kubernetes/defaulting.js';
import { requireGraphCel } from '../kro/graph-cel-loader.js';
import { locator } from '../template-locator.js';
import { unknownInputField } from './unknown-input-fields.js';
import {
  expressionLocation,
  scanTemplateString,
  stringsWithExpressions,
} from '../kro/template-expressions.js';

const SPEC_KEYS = new Set(['input', 'output', 'includeWhen']);
const INPUT_KEYS = new Set(['type', 'namespace', 'labels']);
const OUTPUT_KEYS = new Set(['type', 'namespace', 'id', 'labels', 'spec']);

/** What reading transforms needs beside the document. */
export interface TransformReadOptions {
  readonly celRules: () => CelRules;
  readonly builtins?: BuiltinKinds;
  readonly kubernetesVersion?: string;
}

const declared = new WeakMap<DefinitionRegistry, DeclaredTransform[]>();

/** The transforms a load declared, by the load's registry (empty when none). */
export function declaredTransformsOf(registry: DefinitionRegistry): readonly DeclaredTransform[] {
  return declared.get(registry) ?? [];
}

/**
 * Compiles the transform documents of a load against its types, reporting every problem, and
 * remembers those that compiled for {@link declaredTransformsOf}.
 */
export function compileTransforms(
  taken: readonly TakenTransform[],
  registry: DefinitionRegistry,
  compiler: SchemaCompiler,
  options: TransformReadOptions,
): void {
  const names = new Map<string, DocumentReport>();
  const compiled: DeclaredTransform[] = [];
  for (const { header, report } of taken) {
    const transform = compileTransform(header, report, registry, compiler, options);
    if (transform === undefined) continue;
    const first = names.get(transform.name);
    if (first !== undefined) {
      report.add(
        'transform-bad-spec',
        '/metadata/id',
        `the transform ${JSON.stringify(transform.name)} is already declared at ${formatLocation(first.location('/metadata/id'))}: controller names are unique`,
      );
      continue;
    }
    names.set(transform.name, report);
    compiled.push(transform);
  }
  declared.set(registry, compiled);
}

function compileTransform(
  header: ManifestHeader,
  report: DocumentReport,
  registry: DefinitionRegistry,
  compiler: SchemaCompiler,
  options: TransformReadOptions,
): DeclaredTransform | undefined {
  const outcome = { failed: false };
  const fail: Fail = (code, path, message, part) => {
    outcome.failed = true;
    report.add(code, jsonPointer(path), message, part === undefined ? {} : { part });
    return undefined;
  };
  const name = header.id;
  if (name === undefined)
    return fail(
      'transform-bad-spec',
      ['metadata'],
      "a transform needs metadata.id: the controller's name",
    );
  const spec = header.spec;
  if (!isPlainObject(spec))
    return fail('transform-bad-spec', ['spec'], 'a transform needs spec.input and spec.output');
  unknownKeys(spec, SPEC_KEYS, ['spec'], fail);
  const inputSpec = spec.input;
  const outputSpec = spec.output;
  if (!isPlainObject(inputSpec))
    return fail(
      'transform-bad-spec',
      ['spec', 'input'],
      'spec.input must be a mapping: { type, labels? }',
    );
  if (!isPlainObject(outputSpec))
    return fail(
      'transform-bad-spec',
      ['spec', 'output'],
      'spec.output must be a mapping: { type, id, spec }',
    );
  unknownKeys(inputSpec, INPUT_KEYS, ['spec', 'input'], fail);
  unknownKeys(outputSpec, OUTPUT_KEYS, ['spec', 'output'], fail);
  const input = resolveType(inputSpec.type, ['spec', 'input', 'type'], registry, options, fail);
  const output = resolveType(outputSpec.type, ['spec', 'output', 'type'], registry, options, fail);
  const labels = readLabels(inputSpec.labels, ['spec', 'input', 'labels'], fail);
  const inputNamespace = readNamespace(
    inputSpec.namespace,
    input,
    ['spec', 'input', 'namespace'],
    fail,
  );
  const outputNamespace = readNamespace(
    outputSpec.namespace,
    output,
    ['spec', 'output', 'namespace'],
    fail,
  );
  if (outputSpec.id === undefined)
    fail(
      'transform-bad-spec',
      ['spec', 'output', 'id'],
      "spec.output.id is required: the output's id, such as ${self.metadata.id}",
    );
  if (outputSpec.spec !== undefined && !isPlainObject(outputSpec.spec)) {
    fail('transform-bad-spec', ['spec', 'output', 'spec'], 'spec.output.spec must be a mapping');
  }
  if (outputSpec.labels !== undefined && !isPlainObject(outputSpec.labels)) {
    fail(
      'transform-bad-spec',
      ['spec', 'output', 'labels'],
      'spec.output.labels must be a mapping of strings',
    );
  }
  if (input !== undefined && output !== undefined && input.type === output.type) {
    fail(
      'transform-bad-spec',
      ['spec', 'output', 'type'],
      `the output type is the input type (${input.type}): a transform writes another type`,
    );
  }

  const template: Record<string, unknown> = {
    id: outputSpec.id,
    ...(outputSpec.labels === undefined ? {} : { labels: outputSpec.labels }),
    spec: outputSpec.spec ?? {},
  };
  const compileAt = (root: unknown, at: (string | number)[]): TemplateField[] => {
    const fields: TemplateField[] = [];
    for (const { path, text } of stringsWithExpressions(root)) {
      const field = compileString(
        text,
        [...at, ...path],
        path,
        report,
        input,
        output,
        options,
        () => {
          outcome.failed = true;
        },
      );
      if (field !== undefined) fields.push({ ...field, path });
    }
    return fields;
  };
  const fields = [
    ...compileAt(template.id, ['spec', 'output', 'id']).map((f) => ({
      ...f,
      path: ['id', ...f.path],
    })),
    ...compileAt(template.labels, ['spec', 'output', 'labels']).map((f) => ({
      ...f,
      path: ['labels', ...f.path],
    })),
    ...compileAt(template.spec, ['spec', 'output', 'spec']).map((f) => ({
      ...f,
      path: ['spec', ...f.path],
    })),
  ];
  const includeWhen: GraphExpression[] = [];
  if (spec.includeWhen !== undefined) {
    if (!Array.isArray(spec.includeWhen) || spec.includeWhen.some((c) => typeof c !== 'string')) {
      fail(
        'transform-bad-spec',
        ['spec', 'includeWhen'],
        'includeWhen must be a list of "${...}" strings',
      );
    } else {
      for (const field of compileAt(spec.includeWhen, ['spec', 'includeWhen'])) {
        const [expression] = field.parts;
        if (!field.standalone || expression === undefined || typeof expression === 'string') {
          fail(
            'transform-bad-expression',
            ['spec', 'includeWhen', ...field.path],
            'a condition must be one standalone ${...} expression',
          );
        } else includeWhen.push(expression);
      }
      spec.includeWhen.forEach((condition, i) => {
        if (typeof condition === 'string' && !condition.includes('${')) {
          fail(
            'transform-bad-expression',
            ['spec', 'includeWhen', i],
            'a condition must be one standalone ${...} expression',
          );
        }
      });
    }
  }
  if (outcome.failed || input === undefined || output === undefined) return undefined;
  if (inputNamespace === undefined || outputNamespace === undefined || labels === undefined)
    return undefined;
  return {
    name,
    input: { definition: input, namespace: inputNamespace, labels },
    output: { definition: output, namespace: outputNamespace },
    template,
    fields,
    includeWhen,
    ...outputValidator(output, compiler, options),
    location: formatLocation(report.location('')),
    locate: locator(report, ['spec', 'output']),
    source: { id: name, spec },
  };
}

type Fail = (
  code: FindingCode,
  path: (string | number)[],
  message: string,
  part?: 'key' | 'value',
) => undefined;

function unknownKeys(
  value: Record<string, unknown>,
  known: ReadonlySet<string>,
  at: (string | number)[],
  fail: Fail,
): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) {
      fail(
        'transform-bad-spec',
        [...at, key],
        `unknown field ${JSON.stringify(key)}: ${[...known].join(', ')} are known here`,
        'key',
      );
    }
  }
}

function resolveType(
  name: unknown,
  at: (string | number)[],
  registry: DefinitionRegistry,
  options: TransformReadOptions,
  fail: Fail,
): ResourceDefinition | undefined {
  if (typeof name !== 'string' || name === '') {
    return fail(
      'transform-bad-spec',
      at,
      'a type is required: its name or an alias (VMs.example.org, vm)',
    );
  }
  try {
    return registry.resolve(name);
  } catch (error) {
    if (!(error instanceof TypeResolutionError)) throw error;
    const builtin = options.builtins?.findByName(name) ?? options.builtins?.findByType(name);
    if (builtin !== undefined && error.code === 'unknown-type') return builtin;
    return fail('transform-unknown-type', at, error.message);
  }
}

function readLabels(
  value: unknown,
  at: (string | number)[],
  fail: Fail,
): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (!isPlainObject(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    return fail(
      'transform-bad-spec',
      at,
      'labels must be a mapping of label keys to string values',
    );
  }
  return value as Record<string, string>;
}

function readNamespace(
  value: unknown,
  definition: ResourceDefinition | undefined,
  at: (string | number)[],
  fail: Fail,
): string | undefined {
  if (value === undefined) return definition?.defaultNamespace ?? 'default';
  if (typeof value !== 'string' || value === '')
    return fail('transform-bad-spec', at, 'a namespace must be a non-empty string');
  return value;
}

/** Compiles the expressions of one string of the template; undefined when it has none or fails. */
function compileString(
  text: string,
  at: (string | number)[],
  path: (string | number)[],
  report: DocumentReport,
  input: ResourceDefinition | undefined,
  output: ResourceDefinition | undefined,
  options: TransformReadOptions,
  failed: () => void,
): TemplateField | undefined {
  const scanned = scanTemplateString(text);
  if (scanned === undefined) return undefined;
  const pointer = jsonPointer(at);
  if ('error' in scanned) {
    failed();
    report.add('transform-bad-expression', pointer, scanned.error);
    return undefined;
  }
  const cel = requireGraphCel();
  const parts: (string | GraphExpression)[] = [];
  const result = { ok: true };
  for (const part of scanned.parts) {
    if (typeof part === 'string') {
      parts.push(part);
      continue;
    }
    const location = expressionLocation(report, pointer, text, part);
    const finding = (code: FindingCode, message: string): void => {
      result.ok = false;
      failed();
      report.findings.push({ ...location, code, severity: 'error', message });
    };
    const compiled = cel.compileGraphExpression(part.source, options.kubernetesVersion);
    if ('error' in compiled) {
      finding('transform-bad-expression', `\${${part.source}} does not compile: ${compiled.error}`);
      continue;
    }
    if (
      compiled.usesOmit &&
      !(scanned.standalone && at[1] === 'output' && at[2] === 'spec' && path.length > 0)
    ) {
      finding(
        'transform-bad-expression',
        `\${${part.source}}: omit() can only be the whole value ("\${...}") of a field of output.spec`,
      );
      continue;
    }
    const unknown = compiled.variables.filter((v) => v !== 'self');
    if (unknown.length > 0) {
      finding(
        'transform-unknown-ref',
        `\${${part.source}} references ${unknown.map((v) => JSON.stringify(v)).join(', ')}: a transform's expressions read only its input, self`,
      );
      continue;
    }
    const missing = input === undefined ? undefined : unknownInputField(input, part.source);
    if (input !== undefined && missing !== undefined) {
      const hint =
        missing.nearest === undefined ? '' : ` (did you mean ${JSON.stringify(missing.nearest)}?)`;
      finding(
        'transform-unknown-field',
        `\${${part.source}} reads ${missing.path}, which ${input.type} cannot have: its fields there are ${missing.known.join(', ')}${hint}`,
      );
      continue;
    }
    const from = input === undefined ? undefined : inputFieldType(input, part.source);
    if (!scanned.standalone && from !== undefined && from !== 'string') {
      finding(
        'transform-type-mismatch',
        `\${${part.source}} is of type ${from}, but a string template ("...\${...}...") needs strings: write \${string(${part.source})}`,
      );
      continue;
    }
    if (
      scanned.standalone &&
      from !== undefined &&
      output !== undefined &&
      path.length > 0 &&
      at[2] === 'spec'
    ) {
      const to = fieldType(output, path);
      if (to !== undefined && !fits(from, to)) {
        finding(
          'transform-type-mismatch',
          `\${${part.source}} is of type ${from}, but the output field ${path.join('.')} of ${output.type} is of type ${to}`,
        );
        continue;
      }
    }
    parts.push({
      source: part.source,
      location: formatLocation(location),
      references: compiled.variables,
      ...(compiled.usesOmit ? { omits: true } : {}),
      evaluate: (scope) => compiled.evaluate(scope),
    });
  }
  return result.ok ? { path: [], standalone: scanned.standalone, parts } : undefined;
}

/** Whether a value of schema type `from` may be written to a field of type `to`. */
function fits(from: string, to: string): boolean {
  return from === to || (from === 'integer' && to === 'number');
}

/** The schema type of `self.spec.a.b` (or `self.metadata.id`...) in the input; else undefined. */
function inputFieldType(input: ResourceDefinition, source: string): string | undefined {
  if (!/^self(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(source)) return undefined;
  const [, top, ...rest] = source.split('.');
  if (top === 'metadata') {
    return rest.length === 1 && ['id', 'namespace', 'type'].includes(rest[0] ?? '')
      ? 'string'
      : undefined;
  }
  if (top !== 'spec') return undefined;
  return fieldType(input, rest);
}

/** The schema type of a path below a type's spec (a Kubernetes kind's spec is its body). */
function fieldType(
  definition: ResourceDefinition,
  path: readonly (string | number)[],
): string | undefined {
  let node: unknown = definition.schema;
  for (const key of path) {
    if (!isPlainObject(node)) return undefined;
    if (typeof key === 'number') node = node.items;
    else if (isPlainObject(node.properties) && key in node.properties) node = node.properties[key];
    else return undefined;
  }
  return isPlainObject(node) && typeof node.type === 'string' ? node.type : undefined;
}

/** Checks a rendered output against its type: defaults, the schema, the CEL rules. */
function outputValidator(
  definition: ResourceDefinition,
  compiler: SchemaCompiler,
  options: TransformReadOptions,
): Pick<DeclaredTransform, 'validate'> {
  const schema: JsonSchema | undefined = definition.schema;
  if (schema === undefined) return {};
  const kubernetes = definition.kubernetes;
  return {
    validate(spec, id, namespace) {
      const value: Record<string, unknown> =
        kubernetes === undefined
          ? structuredClone(spec)
          : {
              apiVersion: kubernetes.apiVersion,
              kind: kubernetes.kind,
              metadata: kubernetes.namespaced ? { name: id, namespace } : { name: id },
              ...structuredClone(spec),
            };
      applyDefaults(value, schema);
      const problems = (compiler.compile(schema).validate?.(value) ?? []).map(
        (p) => `${p.path || '/'}: ${p.message}`,
      );
      for (const violation of options.celRules().evaluateRules(schema, value)) {
        problems.push(`${violation.path || '/'}: ${violation.message}`);
      }
      return problems;
    },
  };
}
