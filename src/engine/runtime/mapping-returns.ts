/**
 * The values a user's `mapInput` or `mapEvent` returned, checked and named: whether one is a
 * pointer, any of them in words for the error that says it is not, and `mapInput`'s list checked
 * to be pointers to primary items.
 */

import { formatPointer, type Pointer } from '../resource/pointer.js';

/** Whether a value has a pointer's fields: a namespace, a type and an id, all strings. */
export function isPointerLike(value: unknown): value is Pointer {
  if (typeof value !== 'object' || value === null) return false;
  const { namespace, type, id } = value as Partial<Record<keyof Pointer, unknown>>;
  return typeof namespace === 'string' && typeof type === 'string' && typeof id === 'string';
}

/** A value a user's mapping returned, in words: strings quoted, objects as short JSON. */
export function describeReturned(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object' || value === null) return String(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return Array.isArray(value) ? 'an array' : 'an object';
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

/** The error of a mapping (`mapInput`, `mapEvent`) that returned `what`, not an array of pointers. */
export function notPointers(mapping: string, controller: string, what: string): TypeError {
  return new TypeError(
    `${mapping} of controller ${JSON.stringify(controller)} returned ${what}: expected an array of pointers`,
  );
}

/** What {@link primaryPointers} reads of the controller: its name and its inputs' kinds and types. */
interface MappingController {
  readonly name: string;
  readonly settings: {
    readonly inputs: readonly { readonly kind: string; readonly type: string }[];
  };
}

/**
 * What `mapInput` returned, checked before anything of it is queued: an array of pointers to
 * items of the primary inputs. Anything else fails the mapping (COSI panics on a pointer that is
 * not of a primary kind, and restarts the controller with backoff), where dropping it would lose
 * the change without a trace; a value that is no array of pointers is named as such, not met
 * later as an error inside the engine.
 */
export function primaryPointers(
  returned: unknown,
  controller: MappingController,
  isPrimary: (pointer: Pointer) => boolean,
): readonly Pointer[] {
  const wrong = (what: string): TypeError => notPointers('mapInput', controller.name, what);
  if (!Array.isArray(returned)) throw wrong(describeReturned(returned));
  const pointers = returned as readonly unknown[];
  for (const [index, pointer] of pointers.entries()) {
    if (!isPointerLike(pointer)) throw wrong(`${describeReturned(pointer)} at index ${index}`);
    if (!isPrimary(pointer)) {
      const primaries = controller.settings.inputs
        .filter((i) => i.kind === 'primary')
        .map((i) => i.type)
        .join(', ');
      throw new Error(
        `mapInput of controller ${JSON.stringify(controller.name)} returned ${formatPointer(pointer)}, which is not a primary input (${primaries})`,
      );
    }
  }
  return pointers as readonly Pointer[];
}
