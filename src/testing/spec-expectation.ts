import type { ResourceType } from '../engine/resource/define-resource.js';

/**
 * The type an assertion names: any alias (`'vm'`), the full type, or the `defineResource`
 * handle itself, whose spec type then types the expectation.
 */
export type TypeRef<S = unknown> = string | ResourceType<S>;

/** The type's name, as `project.get` and the other lookups take it. */
export function typeName(ref: TypeRef): string {
  return typeof ref === 'string' ? ref : ref.type;
}

/** `T` with every field, at every depth, optional: what a partial match may name. */
export type DeepPartial<T> = T extends readonly (infer E)[]
  ? readonly DeepPartial<E>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * What a partial spec may hold: checked against the spec type when there is one (a misspelt
 * field or a string for a number is a type error), anything when the spec is `unknown`.
 */
export type SpecExpectation<S> = unknown extends S ? unknown : DeepPartial<S>;
