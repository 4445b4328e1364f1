/**
 * The value of kro's `omit()` (`kro.omit`, KREP-017): a template field (or list element) whose
 * expression gives it is left out of the rendered resource. Opaque: no operator takes it, and
 * `omit() == x` is an error, as kro's `omitVal.Equal` (`pkg/cel/library/omit.go`) makes it.
 */

import { OpaqueValue } from '../cel/opaque-value.js';

/** What `omit()` returns. */
export class OmitValue extends OpaqueValue {
  constructor() {
    super('kro.omit', null);
  }

  override comparisonError(): string {
    return 'omit() is a field-removal sentinel and cannot be compared';
  }
}

/** The one `omit()` value. */
export const OMIT_VALUE = new OmitValue();
