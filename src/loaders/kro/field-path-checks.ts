/**
 * An expression that is a plain field path (`${schema.spec.name}`, `${deployment.spec.replicas}`)
 * checked against the schema of what it reads: the instance's, or the kind of the resource it
 * names.
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import { formatCelType } from '../cel/cel-types.js';
import { didYouMean } from '../did-you-mean.js';
import type { FindingCode } from '../finding.js';
import { placementProblem, type ResourceKind } from './expression-checks.js';
import { celTypeOfSchema } from './expression-types.js';
import type { FieldCheck } from './graph-compilation.js';
import { lookupField } from './reference-types.js';

/**
 * The problem of a plain field path, against the schema of what it reads (the instance's, or
 * the kind of the resource it names): a field that schema cannot have (`rgd-unknown-field`), or
 * a value of its field's CEL type that does not fit where it goes (`rgd-type-mismatch`, as for
 * every other expression: `placementProblem`).
 */
export function checkFieldTypes(
  check: FieldCheck,
  instance: ResourceDefinition,
  kindOf: ReadonlyMap<string, ResourceKind>,
): { code: FindingCode; message: string } | undefined {
  const { root, path } = check.field;
  const read = root === 'schema' ? { definition: instance, list: false } : kindOf.get(root);
  if (read === undefined || read.list) return undefined;
  const found = lookupField(read.definition.schema, path);
  if (found.state === 'missing') {
    const missing = path[found.index] ?? '';
    const guess = didYouMean(missing, found.known);
    const at = path.slice(0, found.index + 1).join('.');
    return {
      code: 'rgd-unknown-field',
      message: `\${${check.source}} reads ${at}, which ${root === 'schema' ? `the instances of ${instance.type}` : `${root} (${read.definition.type})`} cannot have${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}: its fields there are ${found.known.join(', ')}`,
    };
  }
  if (found.state === 'not-an-object') {
    // cel-go's checker: "type 'string' does not support field selection".
    const at = path.slice(0, found.index).join('.');
    return {
      code: 'rgd-type-mismatch',
      message: `\${${check.source}} does not type-check: type '${formatCelType(celTypeOfSchema(found.schema))}' does not support field selection (${root}.${at} selects .${path[found.index] ?? ''})`,
    };
  }
  if (found.state !== 'found') return undefined;
  const message = placementProblem(check, celTypeOfSchema(found.schema), kindOf);
  return message === undefined ? undefined : { code: 'rgd-type-mismatch', message };
}
