/**
 * Go's `json.Unmarshal(bytes, &map[string]interface{}{})`, as the API server decodes the Docker
 * config of a `kubernetes.io/dockerconfigjson` Secret (`ValidateSecret`): why it refuses the
 * bytes, in `encoding/json`'s words. Its scanner reads bytes, not characters, and names the first
 * byte it cannot take with what it was looking for ("invalid character 'x' after object key");
 * a well-formed value that is not an object (or null) cannot fill the map, and a number past
 * float64 cannot fill an interface.
 */

/** How deep arrays and objects may nest (`maxNestingDepth`). */
const MAX_DEPTH = 10000;

/** What the scanner expects next. */
type Step =
  | 'value' // a value (after `:`, `,` in an array, or at the top)
  | 'valueOrEnd' // after `[`
  | 'key' // after `,` in an object
  | 'keyOrEnd' // after `{`
  | 'afterValue'
  | 'afterTop'
  | 'string'
  | 'escape'
  | 'hex'
  | 'minus'
  | 'integer' // after 1-9 and digits
  | 'zero'
  | 'dot'
  | 'fraction'
  | 'exponent' // after e or E
  | 'exponentSign'
  | 'exponentDigits'
  | 'literal';

/** The literals, each byte after the first with what its absence is called. */
const LITERALS: Readonly<Record<string, string>> = { t: 'true', f: 'false', n: 'null' };

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean =>
  isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** A byte as Go's `quoteChar` shows it: `'x'`, `'\n'`, `'\x00'`, `'\''`, a byte past 0x7f as its Latin-1 character. */
function quoteByte(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = {
    7: 'a',
    8: 'b',
    9: 't',
    10: 'n',
    11: 'v',
    12: 'f',
    13: 'r',
  };
  if (named[c] !== undefined) return `'\\${named[c]}'`;
  if (c === 0x5c) return `'\\\\'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if (c >= 0x80 && c < 0xa0) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  if (c === 0xad) return `'\\u00ad'`;
  return `'${String.fromCharCode(c)}'`;
}

/** A value's kind as `encoding/json` names it in a type error. */
type ValueKind = 'object' | 'array' | 'string' | 'number' | 'bool' | 'null';

/** The first syntax error of `bytes`, in Go's words; and, when none, the top value's kind and the first number past float64. */
function scan(bytes: Uint8Array): { error: string } | { kind: ValueKind; hugeNumber?: string } {
  let step: Step = 'value';
  const open: number[] = []; // 0x7b `{` or 0x5b `[` per level
  const inKey: boolean[] = []; // per object level: reading its key (true) or its value
  let literal = '';
  let literalAt = 0;
  let kind: ValueKind | undefined;
  let numberStart = -1;
  let hugeNumber: string | undefined;
  let hexLeft = 0;
  const invalid = (c: number, context: string) => ({
    error: `invalid character ${quoteByte(c)} ${context}`,
  });

  const endNumber = (at: number): void => {
    if (numberStart < 0) return;
    const text = String.fromCharCode(...bytes.subarray(numberStart, at));
    if (hugeNumber === undefined && !Number.isFinite(Number(text))) hugeNumber = text;
    numberStart = -1;
  };

  /** A byte after a complete value; undefined when taken. */
  const afterValue = (c: number): { error: string } | undefined => {
    const depth = open.length;
    if (depth === 0) {
      step = 'afterTop';
      return isSpace(c) ? undefined : invalid(c, 'after top-level value');
    }
    if (isSpace(c)) {
      step = 'afterValue';
      return undefined;
    }
    if (open[depth - 1] === 0x7b) {
      if (inKey[depth - 1]) {
        if (c !== 0x3a) return invalid(c, 'after object key');
        inKey[depth - 1] = false;
        step = 'value';
        return undefined;
      }
      if (c === 0x2c) {
        inKey[depth - 1] = true;
        step = 'key';
        return undefined;
      }
      if (c !== 0x7d) return invalid(c, 'after object key:value pair');
    } else {
      if (c === 0x2c) {
        step = 'value';
        return undefined;
      }
      if (c !== 0x5d) return invalid(c, 'after array element');
    }
    open.pop();
    inKey.pop();
    step = 'afterValue';
    return undefined;
  };

  /** A byte where a value begins; undefined when taken. */
  const beginValue = (c: number, at: number): { error: string } | undefined => {
    if (isSpace(c)) return undefined;
    const top = open.length === 0;
    if (c === 0x7b || c === 0x5b) {
      if (top) kind = c === 0x7b ? 'object' : 'array';
      open.push(c);
      inKey.push(c === 0x7b);
      if (open.length > MAX_DEPTH) return invalid(c, 'exceeded max depth');
      step = c === 0x7b ? 'keyOrEnd' : 'valueOrEnd';
      return undefined;
    }
    if (c === 0x22) {
      if (top) kind = 'string';
      step = 'string';
      return undefined;
    }
    const letter = String.fromCharCode(c);
    if (LITERALS[letter] !== undefined) {
      if (top) kind = letter === 'n' ? 'null' : 'bool';
      literal = LITERALS[letter];
      literalAt = 1;
      step = 'literal';
      return undefined;
    }
    if (c === 0x2d || isDigit(c)) {
      if (top) kind = 'number';
      numberStart = at;
      step = c === 0x2d ? 'minus' : c === 0x30 ? 'zero' : 'integer';
      return undefined;
    }
    return invalid(c, 'looking for beginning of value');
  };

  /** A byte after a number's integer part (`zero`) or fraction; undefined when taken. */
  const afterDigits = (c: number, at: number): { error: string } | undefined => {
    if ((c === 0x2e && step === 'zero') || c === 0x65 || c === 0x45) {
      step = c === 0x2e ? 'dot' : 'exponent';
      return undefined;
    }
    endNumber(at);
    return afterValue(c);
  };

  const stepOne = (c: number, at: number): { error: string } | undefined => {
    switch (step) {
      case 'value':
        return beginValue(c, at);
      case 'valueOrEnd':
        if (c === 0x5d) return afterValue(c);
        return beginValue(c, at);
      case 'keyOrEnd':
      case 'key':
        if (isSpace(c)) return undefined;
        if (c === 0x7d && step === 'keyOrEnd') {
          inKey[inKey.length - 1] = false;
          return afterValue(c);
        }
        if (c !== 0x22) return invalid(c, 'looking for beginning of object key string');
        step = 'string';
        return undefined;
      case 'afterValue':
        return afterValue(c);
      case 'afterTop':
        return isSpace(c) ? undefined : invalid(c, 'after top-level value');
      case 'string':
        if (c === 0x22) step = 'afterValue';
        else if (c === 0x5c) step = 'escape';
        else if (c < 0x20) return invalid(c, 'in string literal');
        return undefined;
      case 'escape':
        if (c === 0x75) {
          step = 'hex';
          hexLeft = 4;
          return undefined;
        }
        if (!'bfnrt\\/"'.includes(String.fromCharCode(c))) {
          return invalid(c, 'in string escape code');
        }
        step = 'string';
        return undefined;
      case 'hex':
        if (!isHex(c)) return invalid(c, 'in \\u hexadecimal character escape');
        if (--hexLeft === 0) step = 'string';
        return undefined;
      case 'minus':
        if (!isDigit(c)) return invalid(c, 'in numeric literal');
        step = c === 0x30 ? 'zero' : 'integer';
        return undefined;
      case 'integer':
        if (isDigit(c)) return undefined;
        step = 'zero';
        return afterDigits(c, at);
      case 'zero':
        return afterDigits(c, at);
      case 'dot':
        if (!isDigit(c)) return invalid(c, 'after decimal point in numeric literal');
        step = 'fraction';
        return undefined;
      case 'fraction':
        if (isDigit(c)) return undefined;
        return afterDigits(c, at);
      case 'exponent':
        if (c === 0x2b || c === 0x2d) {
          step = 'exponentSign';
          return undefined;
        }
        if (!isDigit(c)) return invalid(c, 'in exponent of numeric literal');
        step = 'exponentDigits';
        return undefined;
      case 'exponentSign':
        if (!isDigit(c)) return invalid(c, 'in exponent of numeric literal');
        step = 'exponentDigits';
        return undefined;
      case 'exponentDigits':
        if (isDigit(c)) return undefined;
        endNumber(at);
        return afterValue(c);
      case 'literal': {
        const expected = literal.charCodeAt(literalAt);
        if (c !== expected) {
          return invalid(c, `in literal ${literal} (expecting ${quoteByte(expected)})`);
        }
        if (++literalAt === literal.length) step = 'afterValue';
        return undefined;
      }
    }
  };

  for (let at = 0; at < bytes.length; at++) {
    const problem = stepOne(bytes[at] as number, at);
    if (problem !== undefined) return problem;
  }
  // At the end Go steps one more space: it completes a number or the top value, or fails a
  // literal or number cut short in its own words.
  const ended = stepOne(0x20, bytes.length);
  if (ended !== undefined) return ended;
  if ((step as Step) !== 'afterTop' || kind === undefined)
    return { error: 'unexpected end of JSON input' };
  return hugeNumber === undefined ? { kind } : { kind, hugeNumber };
}

/**
 * Why `json.Unmarshal(bytes, &map[string]interface{}{})` fails, in Go's words; undefined when it
 * succeeds.
 */
export function unmarshalObjectError(bytes: Uint8Array): string | undefined {
  const scanned = scan(bytes);
  if ('error' in scanned) return scanned.error;
  if (scanned.kind !== 'object' && scanned.kind !== 'null') {
    return `json: cannot unmarshal ${scanned.kind} into Go value of type map[string]interface {}`;
  }
  if (scanned.hugeNumber !== undefined) {
    return `json: cannot unmarshal number ${scanned.hugeNumber} into Go value of type float64`;
  }
  return undefined;
}
