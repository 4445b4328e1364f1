import type { Options } from 'ajv';
import { linearRegExpEngine } from './linear-regexp.js';

/**
 * cosi's ajv settings (see `SchemaCompiler`), shared with the generator of the precompiled
 * meta-schema validator (`scripts/generate-meta-validator.mjs`), which must compile it as these
 * settings would.
 */
export const AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  validateFormats: false,
  logger: false,
  // Patterns come from manifests: untrusted, so they run in linear time.
  code: { regExp: linearRegExpEngine },
} as const satisfies Options;
