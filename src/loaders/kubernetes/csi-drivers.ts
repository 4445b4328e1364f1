/**
 * What the API server checks of a CSIDriver's spec in Go (k8s.io/kubernetes
 * `pkg/apis/storage/validation` `validateCSIDriverSpec`), beyond its OpenAPI schema, which has no
 * closed sets here: an `fsGroupPolicy` of `File`, `None` or `ReadWriteOnceWithFSType`; volume
 * lifecycle modes `Persistent` or `Ephemeral`; token requests of different audiences, each
 * token living 10 minutes to 2^32 seconds; node allocatable updates 10 seconds apart at least.
 * (Its required booleans are defaulted before validation, so a manifest cannot miss them.)
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { duplicateValue, invalidValue, unsupportedValue } from './go-field-error.js';

/** `supportedFSGroupPolicy.List()`: sorted. */
const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
/** As `validateVolumeLifecycleModes` lists them. */
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
/** A requested token's shortest and longest life, in seconds. */
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;
const MIN_UPDATE_PERIOD_SECONDS = 10;

/** The problems of a built-in document of `group`/`kind` (a CSIDriver's only). */
export function csiDriverProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'storage.k8s.io' || kind !== 'CSIDriver' || !isPlainObject(document.spec)) {
    return [];
  }
  const spec = document.spec;
  const problems: SchemaProblem[] = [];
  const add = (path: (string | number)[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer(['spec', ...path]), part: 'value', keyword, message });
  };
  const policy = spec.fsGroupPolicy;
  if (typeof policy === 'string' && !FS_GROUP_POLICIES.includes(policy)) {
    add(['fsGroupPolicy'], 'enum', unsupportedValue(policy, FS_GROUP_POLICIES));
  }
  if (Array.isArray(spec.volumeLifecycleModes)) {
    spec.volumeLifecycleModes.forEach((mode: unknown, i) => {
      if (typeof mode === 'string' && !LIFECYCLE_MODES.includes(mode)) {
        add(['volumeLifecycleModes', i], 'enum', unsupportedValue(mode, LIFECYCLE_MODES));
      }
    });
  }
  if (Array.isArray(spec.tokenRequests)) tokenRequestProblems(spec.tokenRequests, add);
  const period = spec.nodeAllocatableUpdatePeriodSeconds;
  if (typeof period === 'number' && period < MIN_UPDATE_PERIOD_SECONDS) {
    add(
      ['nodeAllocatableUpdatePeriodSeconds'],
      'minimum',
      invalidValue(period, 'must be greater than or equal to 10 seconds'),
    );
  }
  return problems;
}

/**
 * `validateTokenRequests`: an audience once (the empty one too); a request after a duplicate is
 * not checked further, as Go skips it.
 */
function tokenRequestProblems(
  requests: readonly unknown[],
  add: (path: (string | number)[], keyword: string, message: string) => void,
): void {
  const audiences = new Set<string>();
  requests.forEach((request: unknown, i) => {
    if (!isPlainObject(request)) return;
    const audience = typeof request.audience === 'string' ? request.audience : '';
    const at = ['tokenRequests', i];
    if (audiences.has(audience)) {
      add([...at, 'audience'], 'duplicate', duplicateValue(audience));
      return;
    }
    audiences.add(audience);
    const seconds = request.expirationSeconds;
    if (typeof seconds !== 'number') return;
    if (seconds < MIN_TOKEN_SECONDS) {
      add(
        [...at, 'expirationSeconds'],
        'minimum',
        invalidValue(seconds, 'may not specify a duration less than 10 minutes'),
      );
    }
    if (seconds > MAX_TOKEN_SECONDS) {
      add(
        [...at, 'expirationSeconds'],
        'maximum',
        invalidValue(seconds, 'may not specify a duration larger than 2^32 seconds'),
      );
    }
  });
}
