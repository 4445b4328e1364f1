/**
 * YAML 1.2's core schema tags, as cosi checks a tagged scalar against them: the tag prefix, how
 * an integer is written, and whether yaml resolved a tag it was given.
 */

export const TAG_PREFIX = 'tag:yaml.org,2002:';

/** How YAML 1.2's core schema writes an integer; such a number must be exact. */
export const INTEGER_SYNTAX = /^[-+]?(?:[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+)$/;

/** Whether yaml resolved an explicitly tagged scalar (it keeps the source string when not). */
export function scalarTagResolved(tag: string, value: unknown): boolean {
  switch (tag) {
    case '!':
    case `${TAG_PREFIX}str`:
      return true;
    case `${TAG_PREFIX}int`:
      return typeof value === 'number';
    case `${TAG_PREFIX}float`:
      return typeof value === 'number' || (typeof value === 'string' && INTEGER_SYNTAX.test(value));
    case `${TAG_PREFIX}bool`:
      return typeof value === 'boolean';
    case `${TAG_PREFIX}null`:
      return value === null;
    default:
      return false;
  }
}
