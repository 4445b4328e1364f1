import { Builder } from '../engine/builder/builder.js';
import { didYouMean } from '../engine/did-you-mean.js';

/** The builder's methods a config chains, as it writes them. */
const BUILDER_METHODS = Object.getOwnPropertyNames(Builder.prototype).filter(
  (name) => name !== 'constructor',
);

/**
 * What a config's `setup` threw, as its author wrote the code: the names of its imports rather
 * than the transpiled `(0 , _cosi.controllerManagedBy)`, and, for a builder method that is not
 * there (`.own(Backup)`), the one it likely meant (or, if none is near, those there are).
 *
 * @example
 * setupErrorMessage('(0 , _cosi.controllerManagedBy)(...).for(...).own is not a function')
 * // 'controllerManagedBy(...).for(...).own is not a function (the builder has no method own: did you mean owns?)'
 */
export function setupErrorMessage(message: string): string {
  const plain = message.replace(/\(0 , _\w+\.(\w+)\)/g, '$1');
  const slip = /\bcontrollerManagedBy\(.*\.([\w$]+) is not a function$/.exec(plain);
  const method = slip?.[1];
  if (method === undefined || BUILDER_METHODS.includes(method)) return plain;
  const guess = didYouMean(method, BUILDER_METHODS);
  return `${plain} (the builder has no method ${method}: ${guess === undefined ? `its methods are ${BUILDER_METHODS.join(', ')}` : `did you mean ${guess}?`})`;
}
