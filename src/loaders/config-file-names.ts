/**
 * The names of a project's config file, looked for in a manifest directory in this order: a
 * directory holding one is a project of its own (see `nestedProject` in `unrendered-sources.ts`).
 */
export const CONFIG_FILE_NAMES: readonly string[] = [
  'cosi.config.ts',
  'cosi.config.mts',
  'cosi.config.js',
  'cosi.config.mjs',
];
