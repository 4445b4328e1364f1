import { describe, expect, it } from 'vitest';
import { createCleanupController } from '../../src/controllers/cleanup.js';
import { createQTransformController } from '../../src/controllers/qtransform.js';
import { createTransformController } from '../../src/controllers/transform.js';
import { defineResource } from '../../src/engine/resource/define-resource.js';

const A = defineResource<{ n: number }>({ type: 'As.example.org' });
const B = defineResource<{ n: number }>({ type: 'Bs.example.org' });

const base = {
  name: 'AToB',
  input: A,
  output: B,
  mapMetadata: () => B.create('x'),
  transform: () => undefined,
};

describe("a generic controller's settings are checked when it is made", () => {
  it('names a misspelt key with the one it is near, once', () => {
    const { output: _, ...rest } = base;
    expect(() => createTransformController({ ...rest, ouput: B } as never)).toThrow(
      /^createTransformController settings: unknown key "ouput" \(did you mean output\?\)$/,
    );
  });

  it('says what a missing or mistyped setting must be, and lists the keys for a stranger', () => {
    expect(() =>
      createTransformController({
        ...base,
        input: 'As.example.org',
        transform: undefined,
      } as never),
    ).toThrow(
      /^createTransformController settings: input must be a resource type, not a string; transform is required \(a function\)$/,
    );
    expect(() => createTransformController({ ...base, colour: 'red' } as never)).toThrow(
      /unknown key "colour" \(it takes name, input, output, mapMetadata, transform, finalizerRemoval, preTransform, postTransform\)$/,
    );
    expect(() => createTransformController(base, { inputFinalizer: true } as never)).toThrow(
      /^createTransformController options: unknown key "inputFinalizer" \(did you mean inputFinalizers\?\)$/,
    );
  });

  it("says where a key of the queue transform, or of the other argument, belongs, not 'did you mean'", () => {
    expect(() =>
      createTransformController({ ...base, unmapMetadata: () => A.pointer('x') } as never),
    ).toThrow(
      /^createTransformController settings: unknown key "unmapMetadata": a setting of createQTransformController \(a queue transform maps an output back to its input\); the transform controller needs none$/,
    );
    expect(() =>
      createTransformController(base, { preTransform: () => undefined } as never),
    ).toThrow(
      /^createTransformController options: unknown key "preTransform": a setting \(the first argument\), not an option$/,
    );
  });

  it('checks the queue transform and the cleanup controller too', () => {
    expect(() => createQTransformController(base as never)).toThrow(
      /^createQTransformController settings: unmapMetadata is required \(a function\)$/,
    );
    expect(() => createCleanupController({ name: 'C', input: A } as never)).toThrow(
      /^createCleanupController settings: handler is required \(an object\)$/,
    );
    // Well made, they are made.
    expect(createTransformController(base).name).toBe('AToB');
  });
});
