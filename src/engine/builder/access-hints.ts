import { AccessError, isAccessError } from '../errors.js';

/**
 * A read or write that the runtime refused a builder controller, with the way out in the
 * builder's terms. The runtime's message tells a controller to declare an input or an output,
 * which a builder controller has not got: it reads what its `for`, `owns` and `watches` watch
 * and writes what it owns or `withOptions({ outputs })` lists. Any other error (and a refusal
 * made to another controller, or by another copy of cosi that does not say what was attempted)
 * is returned as it is.
 */
export function inBuilderTerms(error: unknown, controller: string): unknown {
  if (!isAccessError(error)) return error;
  const { attempted, pointer, rule } = error as Partial<AccessError>;
  if (error.controller !== controller || attempted === undefined || pointer === undefined) {
    return error;
  }
  const type = pointer.type;
  const placeholder = `<the ${type} type>`;
  let why: string;
  if (rule === 'read') {
    why = `it neither watches ${type} in namespace ${JSON.stringify(pointer.namespace)} nor writes it (watch it: .watches(${placeholder}, handlerFuncs({})) reads it without reconciling on its changes; a handler that maps them to requests also reconciles)`;
  } else if (rule === 'write') {
    why = `${type} is not one of its outputs (declare it: .owns(${placeholder}), or .withOptions({ outputs: [${placeholder}] }) for a type it writes without owning)`;
  } else {
    return error;
  }
  return new AccessError(
    controller,
    pointer,
    rule,
    `controller ${JSON.stringify(controller)} may not ${attempted}: ${why}`,
    attempted,
  );
}
