import type { JsonSchema } from '../engine/resource/definition.js';
import type { ApiServerWording, CompiledSchema, CompilesSchemas } from './compiled-schema.js';
import type { FindingSink } from './finding-sink.js';
import { jsonPointer } from './json-pointer.js';
import { correlate, ratchetSchemaProblems } from './ratcheting.js';
import { isSchemaNode, schemaHasRules } from './schema-node.js';
import type { SchemaProblem } from './schema-problem.js';

/**
 * What the schema checks need of CEL: the `CelRules` of the run's Kubernetes release
 * (`cel/cel-rule-engine.ts`), passed in, and asked for only when a schema has rules. Paths are
 * JSON pointers inside the schema (a rule that does not compile) or the value (a broken rule).
 */
export interface SchemaRules {
  compileRules(schema: object): {
    readonly problems: readonly { path: string; message: string; rule: string }[];
  };
  evaluateRules(schema: object, value: unknown): readonly { path: string; message: string }[];
}

/** An update's previous value, against which {@link checkAgainstSchema} ratchets. */
export interface PreviousValue {
  readonly value: unknown;
  /** The schema `compiled` was compiled from: its lists' types and keys correlate items. */
  readonly schema: JsonSchema;
  /** The value is a whole Kubernetes object: its `apiVersion` and `kind` never ratchet. */
  readonly typeMeta?: boolean;
}

/**
 * Reports what is wrong with a definition's schema, at its node in the definition document:
 * `at` is where the schema is (`/spec/schema` in a cosi definition,
 * `/spec/versions/0/schema/openAPIV3Schema` in a CRD). The one place both kinds of definition
 * check their schema (its JSON Schema and its CEL rules), so a check added here covers both.
 * `celRules` gives the rules of the run's Kubernetes version, asked only when the schema has some.
 * False when there was a problem.
 */
export function checkDefinitionSchema(
  schema: JsonSchema,
  type: string,
  at: string,
  report: FindingSink,
  compiler: CompilesSchemas,
  celRules: () => SchemaRules,
  extra: readonly SchemaProblem[] = [],
): boolean {
  const problems = [...compiler.compile(schema).problems, ...extra];
  for (const problem of problems) {
    report.add(
      'invalid-schema',
      `${at}${problem.path}`,
      `the schema of ${type} is invalid: ${problem.message}`,
      { part: problem.part, rule: problem.keyword },
    );
  }
  // CEL rules (`x-kubernetes-validations`) compile with the definition, as the API server
  // compiles a CRD's: one that does not is refused at its line.
  const ruleProblems = schemaHasRules(schema) ? celRules().compileRules(schema).problems : [];
  for (const problem of ruleProblems) {
    report.add(
      'cel-invalid-rule',
      `${at}${problem.path}`,
      `the schema of ${type} has an invalid rule: ${problem.message}`,
      { rule: problem.rule },
    );
  }
  const defaultProblems =
    problems.length === 0 && ruleProblems.length === 0 && schemaHasRules(schema)
      ? reportDefaultsBreakingRules(schema, type, at, report, celRules())
      : 0;
  return problems.length === 0 && ruleProblems.length === 0 && defaultProblems === 0;
}

/**
 * The API server checks each `default` against the rules of its node (and below) when it takes
 * the CRD: a default that a rule refuses would make every document that omits the field
 * invalid. Each broken rule is an `invalid-schema` (`default-breaks-rule`) in the default, at
 * the rule's `fieldPath` or the node. The number reported.
 */
function reportDefaultsBreakingRules(
  schema: JsonSchema,
  type: string,
  at: string,
  report: FindingSink,
  rules: SchemaRules,
): number {
  let count = 0;
  const walk = (node: unknown, path: readonly (string | number)[]): void => {
    if (!isSchemaNode(node)) return;
    if (node.default !== undefined && schemaHasRules(node)) {
      for (const violation of rules.evaluateRules(node, node.default)) {
        report.add(
          'invalid-schema',
          `${at}${jsonPointer([...path, 'default'])}${violation.path}`,
          `the schema of ${type} has a default that breaks its rule: ${violation.message}`,
          { rule: 'default-breaks-rule' },
        );
        count++;
      }
    }
    if (isSchemaNode(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        walk(child, [...path, 'properties', key]);
      }
    }
    walk(node.items, [...path, 'items']);
    walk(node.additionalProperties, [...path, 'additionalProperties']);
  };
  walk(schema, []);
  return count;
}

/**
 * Checks a value against its definition's compiled schema and reports each problem (and the
 * `extra` ones) as a `schema-violation` at its node: `at` is where the value is in the document
 * (`/spec` for a cosi document's spec; `` for a Kubernetes-shaped document, checked whole). The
 * one place both shapes of document are checked against a schema, so a check added here covers
 * both. On an update (`previous`), a problem at a part of the value that did not change is
 * not reported (`ratcheting.ts`). `wording` picks the release whose words a Kubernetes
 * document's problems are in. False when a problem was reported.
 */
export function checkAgainstSchema(
  compiled: CompiledSchema,
  value: unknown,
  at: string,
  report: FindingSink,
  extra: readonly SchemaProblem[] = [],
  previous?: PreviousValue,
  wording?: ApiServerWording,
): boolean {
  let problems = [...(compiled.validate?.(value, wording) ?? []), ...extra];
  if (previous !== undefined && problems.length > 0) {
    const correlation = correlate(value, previous.value, previous.schema, previous);
    problems = ratchetSchemaProblems(
      problems,
      correlation,
      () => compiled.validate?.(previous.value, wording) ?? [],
    );
  }
  report.addSpecViolations(problems, at);
  return problems.length === 0;
}
