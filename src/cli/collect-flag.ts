/** Commander's argument parsers of the repeatable flags that more than one module defines. */

/** Commander's argument parser for a repeatable option. */
export const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

/**
 * `-f a,b -f c` as kubectl takes it: repeatable, and comma-separated. An empty value stays, to be
 * reported as kubectl reports it (`-f "$DIR"` with the variable unset); a list's empty entry
 * (`-f a.yaml,`) does not.
 */
export const collectPaths = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...(value === '' ? [''] : value.split(',').filter((p) => p !== '')),
];
