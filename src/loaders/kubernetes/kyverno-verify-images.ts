/**
 * A Kyverno rule's `verifyImages`, as Kyverno checks each image verification when the policy is
 * written (`ImageVerification.Validate` of its `api/kyverno/v1`), in its words:
 *
 * - it names the images it verifies (`imageReferences`, or the deprecated `image`);
 * - under the `Audit` failure action (its own `failureAction`, else the policy's
 *   `validationFailureAction`: `Audit` unless `Enforce`) it does not mutate digests
 *   (`mutateDigest`, true unless false), as an audit changes nothing;
 * - each attestor set (of `attestors`, of each attestation's, and nested) has entries, and a
 *   `count` of at most as many; each entry is one of `keys`, `certificates`, `keyless` or a
 *   nested `attestor`; keys give a public key, a KMS key or a secret (with a known signature
 *   algorithm beside a public key), certificates a `cert` or `certChain`, keyless a Rekor URL or
 *   roots;
 * - a Notary verification has no `keys` or `keyless` attestors.
 */

import { isPlainObject, stringOrEmpty as text } from '../manifest-document.js';
import { invalidValue } from './go-field-error.js';
import type { AddProblem, Path } from './kyverno-match.js';

/** The signature algorithms of a public key Kyverno takes (`''`: its default). */
const SIGNATURE_ALGORITHMS = new Set(['', 'sha224', 'sha256', 'sha384', 'sha512']);
/** How deep nested attestors are followed. */
const MAX_DEPTH = 8;

/** Reports the problems of a rule's image verifications (see above). */
export function verifyImagesProblems(
  verifyImages: unknown,
  at: Path,
  policyAction: unknown,
  add: AddProblem,
): void {
  if (!Array.isArray(verifyImages)) return;
  verifyImages.forEach((verification: unknown, i) => {
    if (!isPlainObject(verification)) return;
    const here = [...at, i];
    const action = verification.failureAction ?? policyAction;
    const audit = action !== 'Enforce' && action !== 'enforce';
    if (audit && verification.mutateDigest !== false) {
      add(
        [...here, 'mutateDigest'],
        `${invalidValue(true, 'mutateDigest must be set to false for ‘Audit’ failure action')} (it is true unless false; an audit changes nothing)`,
        verification.mutateDigest === undefined ? 'key' : 'value',
      );
    }
    const references = verification.imageReferences;
    const image = verification.image;
    if (
      !(Array.isArray(references) && references.length > 0) &&
      !(typeof image === 'string' && image !== '')
    ) {
      add([...here, 'imageReferences'], 'An image reference is required', 'key');
    }
    attestorSetsProblems(verification.attestors, [...here, 'attestors'], add);
    if (Array.isArray(verification.attestations)) {
      verification.attestations.forEach((attestation: unknown, j) => {
        if (isPlainObject(attestation)) {
          attestorSetsProblems(
            attestation.attestors,
            [...here, 'attestations', j, 'attestors'],
            add,
          );
        }
      });
    }
    if (verification.type === 'Notary' && Array.isArray(verification.attestors)) {
      verification.attestors.forEach((set: unknown, j) => {
        if (!isPlainObject(set) || !Array.isArray(set.entries)) return;
        set.entries.forEach((entry: unknown, k) => {
          if (!isPlainObject(entry)) return;
          for (const [field, name] of [
            ['keyless', 'Keyless'],
            ['keys', 'Keys'],
          ] as const) {
            if (entry[field] != null) {
              add(
                [...here, 'attestors', j, 'entries', k, field],
                `${name} field is not allowed for type notary`,
                'key',
              );
            }
          }
        });
      });
    }
  });
}

/** A list of attestor sets. */
function attestorSetsProblems(sets: unknown, at: Path, add: AddProblem): void {
  if (!Array.isArray(sets)) return;
  sets.forEach((set: unknown, i) => {
    if (isPlainObject(set)) attestorSetProblems(set, [...at, i], add, 0);
  });
}

/** An attestor set: entries, no more counted than given, and each entry an attestor. */
function attestorSetProblems(
  set: Record<string, unknown>,
  at: Path,
  add: AddProblem,
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  const entries = Array.isArray(set.entries) ? set.entries : [];
  if (typeof set.count === 'number' && set.count > entries.length) {
    add([...at, 'count'], invalidValue(set.count, 'Count cannot exceed length of entries'));
  }
  if (entries.length === 0) add([...at, 'entries'], 'An entry is required', 'key');
  entries.forEach((entry: unknown, i) => {
    if (isPlainObject(entry)) attestorProblems(entry, [...at, 'entries', i], add, depth);
  });
}

/** An attestor: one kind, with what it needs. */
function attestorProblems(
  attestor: Record<string, unknown>,
  at: Path,
  add: AddProblem,
  depth: number,
): void {
  const kinds = ['keys', 'certificates', 'keyless', 'attestor'].filter(
    (kind) => attestor[kind] != null,
  );
  if (kinds.length !== 1) {
    add(
      at,
      `keys, certificates, keyless, or a nested attestor is required${kinds.length > 1 ? ` (one of them: it has ${kinds.join(', ')})` : ''}`,
      'key',
    );
  }
  const { keys, certificates, keyless, attestor: nested } = attestor;
  if (isPlainObject(keys)) {
    const publicKeys = text(keys.publicKeys);
    if (publicKeys === '' && text(keys.kms) === '' && keys.secret == null) {
      add([...at, 'keys'], 'A public key, kms key or secret is required', 'key');
    }
    const algorithm = keys.signatureAlgorithm;
    if (publicKeys !== '' && !SIGNATURE_ALGORITHMS.has(text(algorithm))) {
      add(
        [...at, 'keys', 'signatureAlgorithm'],
        invalidValue(
          algorithm,
          'Invalid signature algorithm provided (sha224, sha256, sha384 or sha512)',
        ),
      );
    }
  }
  if (
    isPlainObject(certificates) &&
    text(certificates.cert) === '' &&
    text(certificates.certChain) === ''
  ) {
    add([...at, 'certificates'], 'cert or certChain required', 'key');
  }
  if (isPlainObject(keyless)) {
    const rekor = keyless.rekor;
    if (rekor == null && text(keyless.roots) === '') {
      add([...at, 'keyless'], 'Either Rekor URL or roots are required', 'key');
    }
    if (isPlainObject(rekor) && text(rekor.url) === '') {
      add([...at, 'keyless', 'rekor'], 'An URL is required', 'key');
    }
  }
  if (isPlainObject(nested)) attestorSetProblems(nested, [...at, 'attestor'], add, depth + 1);
}
