/**
 * A Secret as the API server serves it back: it moves `stringData` into `data` when it stores
 * the object (each value's UTF-8 bytes, base64-encoded, over `data`'s value of the same key) and
 * never returns `stringData`. cosi keeps a Secret as it was written (`cosi get` shows what the
 * manifest or the RGD wrote); what reads it as a cluster would, a kro expression
 * (`${string(secret.data.clientId)}`), reads it in this form.
 */

import { defineOwn } from '../../engine/resource/plain-data.js';

const served = new WeakMap<object, unknown>();

/**
 * `value` as the API server would serve it: a Secret (`v1`, `kind: Secret`) with `stringData`
 * merged into `data`, a list with each such Secret so; anything else as it is (the same object).
 * A frozen input (a stored resource) gives the very same output each time, kept while it lives.
 */
export function servedValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = served.get(value);
  if (known !== undefined) return known;
  let result: unknown = value;
  if (Array.isArray(value)) {
    const items = value.map(servedValue);
    if (items.some((item, i) => item !== value[i])) result = items;
  } else if (isSecretWithStringData(value)) {
    result = mergedSecret(value);
  }
  if (Object.isFrozen(value)) served.set(value, result);
  return result;
}

function isSecretWithStringData(
  value: object,
): value is Record<string, unknown> & { stringData: Record<string, unknown> } {
  const object = value as Record<string, unknown>;
  return object.apiVersion === 'v1' && object.kind === 'Secret' && isPlainObject(object.stringData);
}

function mergedSecret(
  secret: Record<string, unknown> & { stringData: Record<string, unknown> },
): Record<string, unknown> {
  const { stringData, ...rest } = secret;
  const data: Record<string, unknown> = {};
  if (isPlainObject(secret.data)) {
    for (const [key, encoded] of Object.entries(secret.data)) defineOwn(data, key, encoded);
  }
  for (const [key, text] of Object.entries(stringData)) {
    if (typeof text === 'string')
      defineOwn(data, key, Buffer.from(text, 'utf8').toString('base64'));
  }
  return { ...rest, data };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
