import type { ResourceDefinition } from '../../engine/resource/definition.js';
import { canonicalJson } from '../../loaders/unique-items.js';
import { MASK } from '../masked-values.js';
import { isRecord } from '../../engine/resource/plain-data.js';

/**
 * The environment variable that holds the key of a golden tree's fingerprints of sensitive values
 * (a CI secret, and the developers' environment), as sops and Pulumi take the key of the secrets
 * they keep in a repository from outside it.
 */
export const GOLDEN_KEY_ENV = 'COSI_GOLDEN_KEY';

/** The key in the environment, or `undefined` when none is set (or it is empty). */
export function goldenKeyFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const key = env[GOLDEN_KEY_ENV];
  return key === undefined || key === '' ? undefined : key;
}

const FINGERPRINT = /^hmac-sha256:[0-9a-f]{32}$/;

/** Whether a golden value is a keyed fingerprint (not a value in clear, not `***`). */
export function isFingerprint(value: unknown): boolean {
  return typeof value === 'string' && FINGERPRINT.test(value);
}

/** The fields of a Kubernetes object's document that are not its content. */
const OBJECT_HEAD = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Where a sensitive resource's values are in its document: cosi's shape holds them in `spec`
 * (`undefined` when it has none: a golden recorded before the values were sealed), a
 * Kubernetes-shaped type's in every field but its head (the document itself).
 */
function contentOf(
  document: Record<string, unknown>,
  definition: ResourceDefinition | undefined,
): Record<string, unknown> | undefined {
  if (definition?.kubernetes !== undefined) return document;
  const spec = document.spec;
  return isRecord(spec) ? spec : undefined;
}

function contentFields(
  content: Record<string, unknown>,
  definition: ResourceDefinition | undefined,
): string[] {
  return Object.keys(content).filter(
    (f) => definition?.kubernetes === undefined || !OBJECT_HEAD.has(f),
  );
}

/**
 * A sensitive resource's golden document, its values sealed: each field of its content is
 * `hmac-sha256:<128 bits>`, keyed with `key` and bound to the resource and the field (equal
 * secrets in two places do not show as equal), or `***` without a key. Neither lets the golden
 * tree, which a repository holds, give away a value: an unkeyed digest would let anyone confirm
 * guesses of a short password offline; the keyed one needs the key, which the repository does
 * not hold. A change of a value changes its fingerprint, so a check catches it (with the key).
 */
export function sealDocument(
  document: Record<string, unknown>,
  definition: ResourceDefinition | undefined,
  resourceKey: string,
  key: Fingerprinter | undefined,
): Record<string, unknown> {
  if (definition?.kubernetes === undefined && !isRecord(document.spec)) {
    // A spec that is no map of fields is sealed whole.
    if (document.spec === undefined) return document;
    return { ...document, spec: seal(document.spec, resourceKey, '', key) };
  }
  const content = contentOf(document, definition);
  if (content === undefined) return document;
  const sealed: Record<string, unknown> = { ...content };
  for (const field of contentFields(content, definition)) {
    sealed[field] = seal(content[field], resourceKey, field, key);
  }
  return definition?.kubernetes !== undefined ? sealed : { ...document, spec: sealed };
}

function seal(
  value: unknown,
  resourceKey: string,
  field: string,
  key: Fingerprinter | undefined,
): string {
  return key === undefined ? MASK : key(`${resourceKey}\0${field}\0${canonicalJson(value)}`);
}

/** The keyed fingerprint of a text: `hmac-sha256:` and the first 128 bits of the HMAC, in hex. */
export type Fingerprinter = (text: string) => string;

/**
 * The fingerprinter of a key, or `undefined` without one. `node:crypto` is loaded only here: a
 * check with no sensitive value to seal does not load it.
 */
export async function fingerprinter(key: string | undefined): Promise<Fingerprinter | undefined> {
  if (key === undefined) return undefined;
  const { createHmac } = await import('node:crypto');
  return (text) =>
    `hmac-sha256:${createHmac('sha256', key).update(`cosi-golden\0${text}`).digest('hex').slice(0, 32)}`;
}

/** What a comparison of a sensitive resource could not compare, by field. */
export interface UnsealedFields {
  /** Fields the golden holds as `***` (recorded without a key), or all of a spec it lacks. */
  readonly notRecorded: readonly string[];
  /** Fields the golden holds fingerprints of, which this check has no key to compare with. */
  readonly noKey: readonly string[];
}

/**
 * The golden and actual documents of a sensitive resource made comparable: a field the golden
 * could not fingerprint (`***`, or a spec it does not hold at all) and a fingerprint this check
 * has no key for are taken as equal, and named, so that the check says what it did not compare
 * instead of passing it silently; fingerprints and the fields there are compare as they are.
 */
export function comparableSealed(
  want: Record<string, unknown>,
  got: Record<string, unknown>,
  definition: ResourceDefinition | undefined,
): { want: Record<string, unknown>; got: Record<string, unknown>; unsealed: UnsealedFields } {
  const notRecorded: string[] = [];
  const noKey: string[] = [];
  if (definition?.kubernetes === undefined) {
    // A golden recorded before sensitive specs were sealed holds no spec at all.
    if (want.spec === undefined && got.spec !== undefined) {
      const { spec: _unrecorded, ...rest } = got;
      return { want, got: rest, unsealed: { notRecorded: ['spec'], noKey } };
    }
    if (!isRecord(want.spec) || !isRecord(got.spec)) {
      const field = 'spec';
      const taken = takeAsEqual(want.spec, got.spec, field, notRecorded, noKey);
      return { want, got: { ...got, spec: taken }, unsealed: { notRecorded, noKey } };
    }
  }
  const wantContent = contentOf(want, definition) ?? {};
  const gotContent = { ...(contentOf(got, definition) ?? {}) };
  for (const field of contentFields(wantContent, definition)) {
    if (!(field in gotContent)) continue;
    gotContent[field] = takeAsEqual(
      wantContent[field],
      gotContent[field],
      field,
      notRecorded,
      noKey,
    );
  }
  const comparable =
    definition?.kubernetes !== undefined ? gotContent : { ...got, spec: gotContent };
  return { want, got: comparable, unsealed: { notRecorded, noKey } };
}

/** The fields whose fingerprints differ between a golden and the actual sealed document. */
export function changedFingerprints(
  want: Record<string, unknown>,
  got: Record<string, unknown>,
  definition: ResourceDefinition | undefined,
): string[] {
  if (definition?.kubernetes === undefined && !isRecord(want.spec)) {
    return isFingerprint(want.spec) && isFingerprint(got.spec) && want.spec !== got.spec
      ? ['spec']
      : [];
  }
  const a = contentOf(want, definition) ?? {};
  const b = contentOf(got, definition) ?? {};
  return contentFields(a, definition).filter(
    (f) => isFingerprint(a[f]) && isFingerprint(b[f]) && a[f] !== b[f],
  );
}

/** The actual sealed value, or the golden's when the two cannot be compared (named in the lists). */
function takeAsEqual(
  want: unknown,
  got: unknown,
  field: string,
  notRecorded: string[],
  noKey: string[],
): unknown {
  if (want === MASK && (got === MASK || isFingerprint(got))) {
    notRecorded.push(field);
    return want;
  }
  if (isFingerprint(want) && got === MASK) {
    noKey.push(field);
    return want;
  }
  return got;
}
