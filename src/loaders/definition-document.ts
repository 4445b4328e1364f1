import {
  createDefinition,
  DefinitionError,
  resourceDefinitionDefinition,
  type DefinitionRule,
  type ResourceDefinition,
  type ResourceDefinitionInput,
} from '../engine/resource/definition.js';
import type { CelRules } from './cel/cel-rule-engine.js';
import { checkDefinitionSchema } from './definition-schema.js';
import type { DocumentReport } from './document-report.js';
import { jsonPointer } from './json-pointer.js';
import { isPlainObject } from './manifest-document.js';
import { printColumnPathError } from './print-column-path.js';
import type { SchemaCompiler } from './schema-compiler.js';
import { shorten } from './shorten.js';

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
  celRules: () => CelRules,
  id?: string,
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
  if (!checkManifestRules(definition, input.aliases ?? [], id, report)) return undefined;
  if (input.schema !== undefined) {
    checkDefinitionSchema(input.schema, input.type, '/spec/schema', report, compiler, celRules);
  }
  return definition;
}

/** Names of cosi's own definition type, lower-cased, as the registry resolves them. */
const BUILT_IN_NAMES = new Set(
  [resourceDefinitionDefinition.id, ...resourceDefinitionDefinition.allAliases].map((n) =>
    n.toLowerCase(),
  ),
);

/**
 * The rules a definition breaks only in a manifest: it may not redefine cosi's own definition
 * type or take one of its names (`rd`), its document's id (if given) is its type lower-cased, as
 * COSI names definitions, and its print columns' templates must be well formed. Each problem is
 * reported at its node; false when there was one.
 */
function checkManifestRules(
  definition: ResourceDefinition,
  aliases: readonly string[],
  id: string | undefined,
  report: DocumentReport,
): boolean {
  let ok = true;
  const refuse = (pointer: string, rule: string, message: string): void => {
    report.add('invalid-definition', pointer, message, { rule });
    ok = false;
  };
  if (BUILT_IN_NAMES.has(definition.id)) {
    refuse(
      '/spec/type',
      'built-in-type',
      `${definition.type} is cosi's own type and cannot be defined again`,
    );
  }
  aliases.forEach((alias, i) => {
    if (BUILT_IN_NAMES.has(alias.toLowerCase())) {
      refuse(
        jsonPointer(['spec', 'aliases', i]),
        'built-in-alias',
        `the alias ${JSON.stringify(shorten(alias))} is a name of ${resourceDefinitionDefinition.type}`,
      );
    }
  });
  if (id !== undefined && id !== definition.id) {
    refuse(
      '/metadata/id',
      'id-mismatch',
      `the id of a definition is its type in lower case: ${JSON.stringify(shorten(definition.id))}, not ${JSON.stringify(shorten(id))}`,
    );
  }
  definition.printColumns.forEach((column, i) => {
    const problem = printColumnPathError(column.jsonPath);
    if (problem !== undefined) {
      refuse(
        jsonPointer(['spec', 'printColumns', i, 'jsonPath']),
        'invalid-print-column',
        `the jsonPath ${JSON.stringify(shorten(column.jsonPath))} is malformed: ${problem}`,
      );
    }
  });
  return ok;
}
