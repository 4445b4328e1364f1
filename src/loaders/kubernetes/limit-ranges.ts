/**
 * What the API server checks of a LimitRange in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateLimitRange`): each limit's type is `Pod`, `Container`,
 * `PersistentVolumeClaim` or a qualified name with a prefix, listed once; a `Pod` limit has no
 * defaults; a `PersistentVolumeClaim` limit bounds storage; and per resource, min ≤ default
 * request ≤ default ≤ max, a max limit/request ratio from 1 to max/min, and for a resource that cannot be
 * overcommitted (huge pages, an extended resource) a default equal to the default request. Each
 * problem at its field, in the API server's words (a quantity printed as Go prints it).
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { duplicateValue, forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { qualifiedNameProblems, type Add } from './label-syntax.js';
import {
  containerResourceNameProblems,
  overcommitAllowed,
  resourceNameProblems,
} from './resource-names.js';
import {
  canonicalQuantity,
  compareQuantities,
  writtenQuantity,
  type ParsedQuantity,
} from './resource-quantity.js';

const STANDARD_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);
const BOUNDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;
type Bound = (typeof BOUNDS)[number];

/** The problems of a built-in document of `group`/`kind` (a LimitRange's only). */
export function limitRangeProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || kind !== 'LimitRange' || !isPlainObject(document.spec)) return [];
  const limits = document.spec.limits;
  if (!Array.isArray(limits)) return [];
  const problems: SchemaProblem[] = [];
  const types = new Set<string>();
  limits.forEach((limit: unknown, i) => {
    if (!isPlainObject(limit)) return;
    const add: Add = (path, keyword, message) => {
      problems.push({
        path: jsonPointer(['spec', 'limits', i, ...path]),
        part: 'value',
        keyword,
        message,
      });
    };
    const type = typeof limit.type === 'string' ? limit.type : '';
    typeProblems(type, add);
    if (types.has(type)) add(['type'], 'duplicate', duplicateValue(type));
    types.add(type);
    if (type === 'Pod') {
      for (const field of ['default', 'defaultRequest']) {
        if (isPlainObject(limit[field]) && Object.keys(limit[field]).length > 0) {
          add([field], 'limit-range', forbiddenValue("may not be specified when `type` is 'Pod'"));
        }
      }
    }
    const quantities = boundsOf(limit, type === 'Pod');
    // `validateLimitRangeResourceName`: a container's names for Pod and Container limits.
    const names =
      type === 'Pod' || type === 'Container' ? containerResourceNameProblems : resourceNameProblems;
    for (const bound of BOUNDS) {
      const values = limit[bound];
      if (!isPlainObject(values) || (type === 'Pod' && bound.startsWith('default'))) continue;
      for (const resource of Object.keys(values)) {
        for (const message of names(resource)) {
          add([bound, resource], 'resource-name', invalidValue(resource, message));
        }
      }
    }
    if (
      type === 'PersistentVolumeClaim' &&
      !quantities.min.has('storage') &&
      !quantities.max.has('storage')
    ) {
      add(
        [],
        'required',
        requiredValue(
          'either minimum or maximum storage value is required, but neither was provided',
        ),
      );
    }
    boundProblems(quantities, add);
  });
  return problems;
}

/** `validateLimitRangeTypeName`: a qualified name, and a standard one unless prefixed. */
function typeProblems(type: string, add: Add): void {
  const messages = qualifiedNameProblems(type);
  for (const message of messages) add(['type'], 'limit-type', invalidValue(type, message));
  if (messages.length === 0 && !type.includes('/') && !STANDARD_TYPES.has(type)) {
    add(
      ['type'],
      'limit-type',
      invalidValue(type, 'must be a standard limit type or fully qualified'),
    );
  }
}

interface Written {
  readonly text: string;
  readonly parsed: ParsedQuantity;
}

/** Each bound's parsed quantities by resource (one that does not parse is the schema walk's: `structural-validator.ts`). */
function boundsOf(
  limit: Record<string, unknown>,
  pod: boolean,
): Record<Bound, Map<string, Written>> {
  const bounds = {} as Record<Bound, Map<string, Written>>;
  for (const bound of BOUNDS) {
    const map = new Map<string, Written>();
    bounds[bound] = map;
    // A Pod limit's defaults are refused above and not compared.
    if (pod && (bound === 'default' || bound === 'defaultRequest')) continue;
    const values = limit[bound];
    if (!isPlainObject(values)) continue;
    for (const [resource, value] of Object.entries(values)) {
      const parsed = writtenQuantity(value);
      if (parsed !== undefined) map.set(resource, { text: String(value), parsed });
    }
  }
  return bounds;
}

function boundProblems(bounds: Record<Bound, Map<string, Written>>, add: Add): void {
  const resources = new Set(BOUNDS.flatMap((bound) => [...bounds[bound].keys()]));
  const shown = (q: Written): string => canonicalQuantity(q.text) ?? q.text;
  for (const resource of resources) {
    const min = bounds.min.get(resource);
    const max = bounds.max.get(resource);
    const defaultLimit = bounds.default.get(resource);
    const defaultRequest = bounds.defaultRequest.get(resource);
    const ratio = bounds.maxLimitRequestRatio.get(resource);
    const above = (a: Written | undefined, b: Written | undefined): boolean =>
      a !== undefined && b !== undefined && compareQuantities(a.parsed, b.parsed) > 0;
    const report = (bound: Bound, value: Written, message: string): void => {
      add([bound, resource], 'limit-range', invalidValue(shown(value), message));
    };
    if (min && max && above(min, max)) {
      report('min', min, `min value ${shown(min)} is greater than max value ${shown(max)}`);
    }
    if (defaultRequest && min && above(min, defaultRequest)) {
      report(
        'defaultRequest',
        defaultRequest,
        `min value ${shown(min)} is greater than default request value ${shown(defaultRequest)}`,
      );
    }
    if (defaultRequest && max && above(defaultRequest, max)) {
      report(
        'defaultRequest',
        defaultRequest,
        `default request value ${shown(defaultRequest)} is greater than max value ${shown(max)}`,
      );
    }
    if (defaultRequest && defaultLimit && above(defaultRequest, defaultLimit)) {
      report(
        'defaultRequest',
        defaultRequest,
        `default request value ${shown(defaultRequest)} is greater than default limit value ${shown(defaultLimit)}`,
      );
    }
    if (defaultLimit && min && above(min, defaultLimit)) {
      report(
        'default',
        min,
        `min value ${shown(min)} is greater than default value ${shown(defaultLimit)}`,
      );
    }
    if (defaultLimit && max && above(defaultLimit, max)) {
      report(
        'default',
        max,
        `default value ${shown(defaultLimit)} is greater than max value ${shown(max)}`,
      );
    }
    if (ratio && compareQuantities(ratio.parsed, { units: 1n, scale: 0 }) < 0) {
      report('maxLimitRequestRatio', ratio, `ratio ${shown(ratio)} is less than 1`);
    }
    if (ratio && min && max) {
      // Go compares in milli-units, as float64s, and prints the bound with %f.
      const limit = toNumber(max.parsed) / toNumber(min.parsed);
      if (toNumber(ratio.parsed) > limit) {
        report(
          'maxLimitRequestRatio',
          ratio,
          `ratio ${shown(ratio)} is greater than max/min = ${limit.toFixed(6)}`,
        );
      }
    }
    if (
      !overcommitAllowed(resource) &&
      defaultLimit &&
      defaultRequest &&
      compareQuantities(defaultLimit.parsed, defaultRequest.parsed) !== 0
    ) {
      report(
        'defaultRequest',
        defaultRequest,
        `default value ${shown(defaultLimit)} must equal to defaultRequest value ${shown(defaultRequest)} in ${resource}`,
      );
    }
  }
}

/** A quantity as a float64. */
function toNumber(quantity: ParsedQuantity): number {
  return Number(quantity.units) / 10 ** quantity.scale;
}
