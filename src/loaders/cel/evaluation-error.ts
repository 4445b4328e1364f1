/**
 * A CEL evaluation error in cel-go's words, which the API server and kro print: the evaluator
 * here (@bufbuild/cel) words the same errors its own way. `self.name` of an object without a
 * name is `no such key: name` (not `field not found: name`), `self.items[3]` of a shorter list
 * `index out of bounds: 3`, `1 / 0` `division by zero`, an int product past 64 bits `integer
 * overflow`; an operator or function whose arguments' runtime types it does not take (a `dyn`
 * value: int-or-string, preserved unknown fields) `no such overload`. Other messages are kept.
 */
export function goEvaluationError(message: string): string {
  for (const [pattern, replace] of REWORDINGS) {
    const match = pattern.exec(message);
    if (match !== null) return replace(match);
  }
  return message;
}

/**
 * Throws cel-go's error for a conversion that failed (`int("12abc")`, `duration("1d")`):
 * `type conversion error from 'string' to 'int'`, the types as cel-go names them
 * (`google.protobuf.Duration`), whatever Go's parser said.
 */
export function conversionError(from: string, to: string): never {
  throw new Error(`type conversion error from '${from}' to '${to}'`);
}

/** Whether a message (as {@link goEvaluationError} gives it) says an operator had no overload. */
export function isNoSuchOverload(message: string): boolean {
  return message.startsWith('no such overload');
}

const REWORDINGS: readonly (readonly [RegExp, (match: RegExpExecArray) => string])[] = [
  [/^field not found: (.*)$/s, (m) => `no such key: ${m[1]}`],
  [/^index (-?\d+) out of bounds \[0, -?\d+\)$/, (m) => `index out of bounds: ${m[1]}`],
  [/^(?:int|uint) divide by zero$/, () => 'division by zero'],
  [/^(?:int|uint) modulus by zero$/, () => 'modulus by zero'],
  [/^int overflow during /, () => 'integer overflow'],
  [/^uint overflow during /, () => 'unsigned integer overflow'],
  [/^found no matching overload for /, () => 'no such overload'],
];
