import {
  createDefinition,
  DefinitionError,
  type DefinitionRule,
  type ResourceDefinition,
  type ResourceDefinitionInput,
} from '../engine/resource/definition.js';
import type { DocumentReport } from './document-report.js';
import { isPlainObject } from './manifest-document.js';
import type { SchemaCompiler } from './schema-compiler.js';

/** The spec of a `ResourceDefinitions.meta.cosi.dev` document, as a JSON Schema. */
export const DEFINITION_SPEC_SCHEMA = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { type: 'string' },
    displayType: { type: 'string', minLength: 1 },
    defaultNamespace: { type: 'string' },
    aliases: { type: 'array', items: { type: 'string', minLength: 1 } },
    skipAutomaticAliases: { type: 'boolean' },
    printColumns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'jsonPath'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1 },
          jsonPath: { type: 'string', minLength: 1 },
        },
      },
    },
    sensitivity: { type: 'string' },
    schema: { type: 'object' },
  },
} as const;

/** Where in the spec each naming rule points. */
const RULE_POINTER: Readonly<Record<DefinitionRule, string>> = {
  'missing-suffix': '/spec/type',
  'empty-name': '/spec/type',
  'empty-suffix': '/spec/type',
  'name-not-camel-case': '/spec/type',
  'invalid-name': '/spec/type',
  'invalid-suffix': '/spec/type',
  'name-not-plural': '/spec/type',
  'unknown-sensitivity': '/spec/sensitivity',
  'invalid-namespace': '/spec/defaultNamespace',
  'invalid-print-column': '/spec/printColumns',
};

/**
 * Turns a definition document's spec into a definition: the spec's shape, COSI's naming rules
 * ({@link createDefinition}) and the spec schema it carries, each problem reported at its node.
 * `undefined` when the definition cannot be made; check `report.hasErrors` before using one
 * that was made (its schema, say, may be invalid).
 */
export function readDefinition(
  spec: unknown,
  report: DocumentReport,
  compiler: SchemaCompiler,
): ResourceDefinition | undefined {
  const shape = compiler.compile(DEFINITION_SPEC_SCHEMA);
  const problems = shape.validate?.(spec) ?? [];
  report.addSpecViolations(problems);
  if (problems.length > 0 || !isPlainObject(spec)) return undefined;
  // The schema above guarantees the input's shape.
  const input = spec as unknown as ResourceDefinitionInput;
  let definition: ResourceDefinition;
  try {
    definition = createDefinition(input);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    report.add('invalid-definition', RULE_POINTER[error.rule], error.message, {
      rule: error.rule,
    });
    return undefined;
  }
  if (input.schema !== undefined) {
    for (const problem of compiler.compile(input.schema).problems) {
      report.add(
        'invalid-schema',
        `/spec/schema${problem.path}`,
        `the schema of ${input.type} is invalid: ${problem.message}`,
        { part: problem.part, rule: problem.keyword },
      );
    }
  }
  return definition;
}
