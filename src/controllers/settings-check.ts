/**
 * Checks what a generic controller's factory is given (`createTransformController(settings,
 * options)`), so that a misspelt key (`outputs:`) or a missing function is said where the config
 * calls it, in one line naming every setting it takes: it was a TypeError from inside the
 * controller (`Cannot read properties of undefined (reading 'namespace')`), or a failure retried
 * for ever (`settings.mapMetadata is not a function`). TypeScript says the same of a typed config;
 * a config that is not type-checked gets it at load.
 */

import { didYouMean } from '../engine/did-you-mean.js';

/** What one setting must be. */
export type SettingKind = 'string' | 'function' | 'type' | 'object' | 'any';

/** The settings a factory takes: each key's kind, and whether it must be there. */
export type SettingsShape = Readonly<
  Record<string, { readonly kind: SettingKind; readonly required?: boolean }>
>;

/**
 * Throws an Error naming every problem of `given` against `shape` (unknown keys, missing or
 * mistyped required ones, mistyped optional ones), `what` prefixing it (`createTransformController
 * settings`); returns when there is none. `elsewhere` says where a key that belongs to another
 * factory or argument goes (`unmapMetadata` given to the transform controller), instead of taking
 * it for a misspelling of the nearest key here.
 */
export function checkSettings(
  what: string,
  given: unknown,
  shape: SettingsShape,
  elsewhere: Readonly<Record<string, string>> = {},
): void {
  if (given === undefined && !Object.values(shape).some((s) => s.required === true)) return;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new Error(`${what}: expected an object of ${listKeys(shape)}`);
  }
  const problems: string[] = [];
  const record = given as Record<string, unknown>;
  const known = Object.keys(shape);
  /** The keys a misspelt one was taken for: said there, not again as missing. */
  const suggested = new Set<string>();
  /** Whether a key given is none of them and near none: then the keys it takes are listed. */
  let stranger = false;
  for (const key of Object.keys(record)) {
    if (Object.prototype.hasOwnProperty.call(shape, key)) continue;
    // A key of another factory (or of the other argument) is no typo: say where it belongs.
    const belongs = Object.prototype.hasOwnProperty.call(elsewhere, key)
      ? elsewhere[key]
      : undefined;
    if (belongs !== undefined) {
      problems.push(`unknown key ${JSON.stringify(key)}: ${belongs}`);
      continue;
    }
    const nearest = didYouMean(key, known);
    if (nearest === undefined) stranger = true;
    else suggested.add(nearest);
    problems.push(
      `unknown key ${JSON.stringify(key)}${nearest === undefined ? '' : ` (did you mean ${nearest}?)`}`,
    );
  }
  for (const [key, { kind, required }] of Object.entries(shape)) {
    const value = record[key];
    if (value === undefined) {
      if (required === true && !suggested.has(key)) {
        problems.push(`${key} is required (${describeKind(kind)})`);
      }
      continue;
    }
    if (!fits(value, kind)) {
      problems.push(`${key} must be ${describeKind(kind)}, not ${describeValue(value)}`);
    }
  }
  if (problems.length > 0) {
    // The keys it takes, when one given is none of them and has no near one.
    const list = stranger && suggested.size === 0;
    throw new Error(
      `${what}: ${problems.join('; ')}${list ? ` (it takes ${listKeys(shape)})` : ''}`,
    );
  }
}

function fits(value: unknown, kind: SettingKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string' && value !== '';
    case 'function':
      return typeof value === 'function';
    case 'type':
      return (
        typeof value === 'object' &&
        value !== null &&
        typeof (value as { type?: unknown }).type === 'string'
      );
    case 'object':
      return typeof value === 'object' && value !== null;
    case 'any':
      return true;
  }
}

function describeKind(kind: SettingKind): string {
  switch (kind) {
    case 'string':
      return 'a non-empty string';
    case 'function':
      return 'a function';
    case 'type':
      return 'a resource type';
    case 'object':
      return 'an object';
    case 'any':
      return 'a value';
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function listKeys(shape: SettingsShape): string {
  return Object.keys(shape).join(', ');
}
