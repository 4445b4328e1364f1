import pluralize from 'pluralize';

/**
 * What a type's name is in English, as COSI derives it (with go-pluralize, a port of the
 * pluralize package cosi uses): whether it is plural, and its singular (the display type and the
 * first alias).
 */
export interface NameForms {
  readonly plural: boolean;
  readonly singular: string;
}

/**
 * Where name forms are kept between runs (the CLI keeps them in a file beside its code cache):
 * pluralize tries its rules one by one, and V8 compiles each rule's regular expression at its
 * first use and again at its second; the first few names of a run cost milliseconds each.
 */
export interface NameFormStore {
  get(name: string): NameForms | undefined;
  set(name: string, forms: NameForms): void;
}

/**
 * The names cosi defines types of itself, with pluralize's answers (a test holds them to it):
 * their forms are asked for as cosi's modules load, before any store is given.
 */
export const BUILT_IN_NAME_FORMS: ReadonlyMap<string, NameForms> = new Map([
  ['ResourceDefinitions', { plural: true, singular: 'ResourceDefinition' }],
]);

const known = new Map<string, NameForms>(BUILT_IN_NAME_FORMS);
let store: NameFormStore | undefined;

/** Keeps the forms of the names met from now on in `kept` too, and reads them from it. */
export function keepNameFormsIn(kept: NameFormStore | undefined): void {
  store = kept;
}

/** The forms of a type's name (`VirtualMachines`: plural, `VirtualMachine`). */
export function nameForms(name: string): NameForms {
  let forms = known.get(name);
  if (forms !== undefined) return forms;
  forms = store?.get(name);
  if (forms === undefined) {
    forms = { plural: pluralize.isPlural(name), singular: pluralize.singular(name) };
    store?.set(name, forms);
  }
  known.set(name, forms);
  return forms;
}

/** The plural of a name, for a message that says which name was meant. */
export function pluralOf(name: string): string {
  return pluralize.plural(name);
}
