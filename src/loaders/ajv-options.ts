import type { Options } from 'ajv';
import { linearRegExpEngine } from './linear-regexp.js';

/**
 * cosi's ajv settings (see `SchemaCompiler`), shared with the generator of the precompiled
 * meta-schema validator (`scripts/generate-meta-validator.mjs`), which must compile it as these
 * settings would.
 */
export const AJV_OPTIONS = {
  allErrors: true,
  // Only a value's own properties are its fields: `{}` has no `constructor` or `toString` field,
  // which a schema may declare (a CRD property of that name was read from Object.prototype).
  ownProperties: true,
  strict: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  validateFormats: false,
  logger: false,
  // A decimal factor: the API server (kube-openapi's MultipleOf) accepts 0.3 of 0.1, whose
  // quotient in floating point is 2.9999999999999996, as an integer within 1e-9; exact division
  // refused it.
  multipleOfPrecision: 9,
  // Patterns come from manifests: untrusted, so they run in linear time. No optimization pass
  // over the generated code: on large CRDs (kube-prometheus' Prometheus, 800 KB) it is most of
  // the compile (0.8-1.2 s of 1.1-1.5 s for three of its schemas), and the code it saves runs
  // no faster (20k validations of a Prometheus 196-237 ms with it, 227-233 without).
  code: { regExp: linearRegExpEngine, optimize: false },
} as const satisfies Options;
