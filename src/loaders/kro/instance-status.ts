/**
 * An RGD's instance status (`spec.schema.status`): kro computes it whole from expressions, each
 * field one `${...}` or a string template, and takes its `conditions` out first (kro's custom
 * conditions, each entry one `${...}` giving a condition or a list of them). Once the graph
 * compiles, the status fields, typed from their expressions, become the instance type's status
 * schema, as kro writes them into the CRD it generates.
 */

import type { GraphExpression, TemplateField } from '../../controllers/resource-graph.js';
import type { JsonSchema, ResourceDefinition } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';
import { compileStrings, STATUS_CONDITIONS } from './compile-expressions.js';
import { expressionVariables } from './expression-checks.js';
import { forgetSchemaTypes } from './expression-types.js';
import { fail, type GraphCompilation } from './graph-compilation.js';
import { compileConditions } from './standalone-expressions.js';
import { fieldsReferringToNothing, fieldsWithoutExpressions } from './status-fields.js';
import { instanceStatusSchema, schemaOfCelType } from './status-schema.js';

/** The instance status compiled: its fields and its custom conditions. */
export interface CompiledStatus {
  readonly status: TemplateField[];
  readonly conditions: GraphExpression[];
}

/** Compiles the instance status of the RGD whose spec is `spec` (refused fields: left out). */
export function compileInstanceStatus(
  c: GraphCompilation,
  spec: Record<string, unknown>,
): CompiledStatus {
  const givenStatus = isPlainObject(spec.schema) ? spec.schema.status : undefined;
  const statusInto = new Set<string>();
  c.owner.id = '';
  c.owner.iterators = [];
  // kro takes `conditions` out of the status first (extractConditionExpressions): each entry is
  // one `${...}` giving a condition or a list of them, written to the instance's conditions.
  const { conditions: conditionsSpec, ...statusSpec } = isPlainObject(givenStatus)
    ? givenStatus
    : { conditions: undefined };
  const conditions =
    conditionsSpec === undefined
      ? []
      : (compileConditions(
          c,
          conditionsSpec,
          ['spec', 'schema', 'status', 'conditions'],
          new Set(),
          statusInto,
          STATUS_CONDITIONS,
        ) ?? []);
  const status =
    compileStrings(
      c,
      statusSpec,
      ['spec', 'schema', 'status'],
      new Set(),
      statusInto,
      'the instance status',
    ) ?? [];
  for (const path of fieldsWithoutExpressions(statusSpec)) {
    fail(
      c,
      'rgd-bad-expression',
      ['spec', 'schema', 'status', ...path],
      `status.${path.join('.')} has no \${...} expression: kro computes the whole status from expressions, and refuses a constant field ("status fields without expressions are not supported")`,
    );
  }
  for (const field of fieldsReferringToNothing(status)) {
    fail(
      c,
      'rgd-bad-expression',
      ['spec', 'schema', 'status', ...field.path],
      `status.${field.path.join('.')} refers to neither schema nor a resource: kro refuses it ("instance status field must refer to a resource or schema")`,
    );
  }
  return { status, conditions };
}

/** Gives the instance's type the status schema its compiled status fields are typed as. */
export function typeInstanceStatus(c: GraphCompilation, status: readonly TemplateField[]): void {
  // kro writes the status fields, typed from their expressions, into the instance's CRD.
  const variables = expressionVariables(c.definition, c.kindOf, c.known);
  setInstanceStatus(
    c.definition,
    instanceStatusSchema(
      status
        .filter((field) => field.path[0] !== 'conditions')
        .map((field) => {
          const check = c.statusChecks.get(field.path);
          return {
            path: field.path,
            schema: !field.standalone
              ? { type: 'string' }
              : check === undefined
                ? { 'x-kubernetes-preserve-unknown-fields': true }
                : schemaOfCelType(check(variables).type),
          };
        }),
    ),
  );
}

/**
 * Gives the instance's type its inferred status schema, in place: the type's schema object stays
 * the one compiled when the RGD was read (once per load; the status of an instance's manifest is
 * dropped, not checked, as the kind has the status subresource). The CEL types made of the schema
 * so far, with its status open, are forgotten.
 */
function setInstanceStatus(definition: ResourceDefinition, status: JsonSchema): void {
  const schema = definition.schema;
  if (schema === undefined || !isPlainObject(schema.properties)) return;
  schema.properties.status = status;
  forgetSchemaTypes(schema);
}
