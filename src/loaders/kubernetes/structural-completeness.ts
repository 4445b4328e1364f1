/**
 * The API server's completeness rule for a CRD schema (apiextensions-apiserver
 * `validateStructuralCompleteness`): what the root's `allOf`, `anyOf`, `oneOf` and `not` say of a
 * property (or of an array's items), through nested properties and junctors, needs that property
 * declared in the structural part of the schema, so that every value validation applies to a
 * value of a known schema. As in Go, only the root's junctors are followed (those of a nested
 * node are not), and a map's `additionalProperties` does not stand in for a property.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';

const JUNCTORS = ['not', 'allOf', 'anyOf', 'oneOf'] as const;

/** A node's place: its pointer segments and its path as Go's `field.Path` prints it. */
interface Place {
  readonly segments: readonly string[];
  readonly go: string;
}

const ROOT: Place = { segments: [], go: '' };

function child(place: Place, segment: string): Place {
  return {
    segments: [...place.segments, segment],
    go: place.go === '' ? segment : `${place.go}.${segment}`,
  };
}

function keyed(place: Place, segment: string, key: string): Place {
  const named = child(place, segment);
  return { segments: [...named.segments, key], go: `${named.go}[${key}]` };
}

function indexed(place: Place, segment: string, i: number): Place {
  const named = child(place, segment);
  return { segments: [...named.segments, String(i)], go: `${named.go}[${i}]` };
}

/** The properties the root's junctors name that the structural part does not declare. */
export function completenessProblems(schema: JsonSchema): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  junctors(schema, schema, ROOT, ROOT, problems);
  return problems;
}

/** `validateValueValidationCompleteness`: the junctors of `value`, against `structural`. */
function junctors(
  value: Readonly<Record<string, unknown>>,
  structural: Readonly<Record<string, unknown>> | undefined,
  sPlace: Place,
  vPlace: Place,
  problems: SchemaProblem[],
): void {
  for (const junctor of JUNCTORS) {
    const written = value[junctor];
    if (junctor === 'not') {
      if (isPlainObject(written)) {
        nested(written, structural, sPlace, child(vPlace, junctor), problems);
      }
      continue;
    }
    if (!Array.isArray(written)) continue;
    written.forEach((branch, i) => {
      if (isPlainObject(branch)) {
        nested(branch, structural, sPlace, indexed(vPlace, junctor, i), problems);
      }
    });
  }
}

/** `validateNestedValueValidationCompleteness`. */
function nested(
  value: Readonly<Record<string, unknown>>,
  structural: Readonly<Record<string, unknown>> | undefined,
  sPlace: Place,
  vPlace: Place,
  problems: SchemaProblem[],
): void {
  if (structural === undefined) {
    problems.push({
      path: jsonPointer([...vPlace.segments]),
      part: 'value',
      keyword: 'completeness',
      message: `${sPlace.go}: Required value: because it is defined in ${vPlace.go}`,
    });
    return;
  }
  junctors(value, structural, sPlace, vPlace, problems);
  if (isPlainObject(value.items)) {
    const items = isPlainObject(structural.items) ? structural.items : undefined;
    nested(value.items, items, child(sPlace, 'items'), child(vPlace, 'items'), problems);
  }
  if (isPlainObject(value.properties)) {
    const declared = isPlainObject(structural.properties) ? structural.properties : {};
    for (const [key, property] of Object.entries(value.properties)) {
      if (!isPlainObject(property)) continue;
      const found = Object.hasOwn(declared, key) ? declared[key] : undefined;
      nested(
        property,
        isPlainObject(found) ? found : undefined,
        keyed(sPlace, 'properties', key),
        keyed(vPlace, 'properties', key),
        problems,
      );
    }
  }
}
