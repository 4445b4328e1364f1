/**
 * The draft-07 meta-schema validator compiled ahead of time (scripts/generate-meta-validator.mjs)
 * answers as ajv's own, compiled at run time with the same settings: the same verdict and the
 * same errors, for hand-picked schemas and for generated ones. After an ajv upgrade that changes
 * either, this fails until the validator is generated again.
 */
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS } from '../../src/loaders/ajv-options.js';
import { validate as precompiled } from '../../src/loaders/generated/draft-07-meta-validator.js';
import { SchemaCompiler } from '../../src/loaders/schema-compiler.js';

const ajv = new Ajv(AJV_OPTIONS);

/** ajv's own answer (its meta-schema compiled in this process), and the precompiled one. */
function bothAnswers(schema: Record<string, unknown>) {
  const own = ajv.validateSchema(schema) as boolean;
  const ownErrors = ajv.errors ?? null;
  const valid = precompiled(schema);
  return {
    own: { valid: own, errors: ownErrors },
    precompiled: { valid, errors: valid ? null : (precompiled.errors ?? null) },
  };
}

const SCHEMAS: Record<string, unknown>[] = [
  { type: 'object', required: ['cpus'], properties: { cpus: { type: 'integer', minimum: 1 } } },
  { type: 'strin' },
  { type: ['string', 'string'] },
  { type: ['string', 'null'], enum: ['a', { b: [1, 2] }, { b: [1, 2] }] },
  { required: 'cpus' },
  { required: ['a', 'a'] },
  { properties: { a: { minimum: 'one' }, b: { maxLength: -1 } } },
  { allOf: [] },
  { items: [{ type: 1 }, true], additionalItems: false },
  { $ref: 5, definitions: { x: { type: 'nope' } } },
  { pattern: 7, format: 'date', 'x-kubernetes-preserve-unknown-fields': true },
  { dependencies: { a: ['b', 'b'], c: { type: 'bad' } } },
];

describe('the precompiled draft-07 meta-schema validator', () => {
  it("gives ajv's own verdict and errors for valid and invalid schemas", () => {
    for (const schema of SCHEMAS) {
      const { own, precompiled: answer } = bothAnswers(schema);
      expect(answer, JSON.stringify(schema)).toEqual(own);
    }
    // The corpus has both kinds.
    expect(SCHEMAS.filter((s) => bothAnswers(s).own.valid).length).toBeGreaterThan(0);
    expect(SCHEMAS.filter((s) => !bothAnswers(s).own.valid).length).toBeGreaterThan(5);
  });

  it("gives ajv's own verdict and errors for generated schemas", () => {
    const keyword = fc.constantFrom(
      'type',
      'required',
      'properties',
      'items',
      'enum',
      'minimum',
      'maxLength',
      'allOf',
      'anyOf',
      'not',
      'uniqueItems',
      'additionalProperties',
      'description',
    );
    const schema = fc.dictionary(keyword, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    fc.assert(
      fc.property(schema, (s) => {
        const { own, precompiled: answer } = bothAnswers(s);
        expect(answer).toEqual(own);
      }),
      { numRuns: 300 },
    );
  });

  it('is what the schema compiler checks schemas with: an invalid schema is its problem', () => {
    const compiled = new SchemaCompiler().compile({ type: 'strin' });
    expect(compiled.validate).toBeUndefined();
    expect(compiled.problems.map((p) => p.path)).toEqual(['/type']);
  });
});
