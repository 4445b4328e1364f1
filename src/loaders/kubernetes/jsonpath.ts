import {
  parseTemplate,
  type FilterOperator,
  type JsonPathSegment,
  type JsonPathStep,
  type JsonPathTemplate,
  type SliceBound,
} from './jsonpath-parser.js';

export { parseTemplate, JsonPathSyntaxError, type JsonPathTemplate } from './jsonpath-parser.js';

/**
 * The evaluator of Kubernetes' JSONPath templates (`{.spec.cpus}`, `{range .items[*]}...{end}`,
 * `{.items[?(@.spec.cpus>2)].metadata.id}`), with kubectl's output rules: text outside braces
 * is kept, the values of one action are joined by a space, maps and lists print as JSON (keys
 * sorted, as Go prints maps), strings bare, null as `null`.
 */

/** How missing data is treated. */
export interface JsonPathOptions {
  /**
   * A field that is in none of the values it is looked up in gives nothing instead of an
   * `... is not found` error. kubectl's `get -o jsonpath` and talosctl's print columns allow
   * them; client-go's default is not to.
   */
  readonly allowMissingKeys?: boolean;
}

/** A template that parsed but cannot run on this data (an index out of bounds, a bad filter). */
export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathError';
  }
}

/**
 * Parses and runs a template on plain data.
 *
 * @throws JsonPathSyntaxError for a malformed template, JsonPathError when it cannot run.
 */
export function evaluateTemplate(
  template: string,
  data: unknown,
  options: JsonPathOptions = {},
): string {
  return executeTemplate(parseTemplate(template), data, options);
}

/**
 * Runs a parsed template on plain data.
 *
 * @throws JsonPathError when it cannot run.
 */
export function executeTemplate(
  template: JsonPathTemplate,
  data: unknown,
  options: JsonPathOptions = {},
): string {
  return new Evaluator(options.allowMissingKeys === true).render(template.segments, data);
}

/**
 * The values a parsed template's expressions reach, in order, as data rather than text (its
 * literal text left out): kubectl's `-o jsonpath-as-json`.
 *
 * @throws JsonPathError when it cannot run.
 */
export function collectTemplateValues(
  template: JsonPathTemplate,
  data: unknown,
  options: JsonPathOptions = {},
): unknown[] {
  const values: unknown[] = [];
  new Evaluator(options.allowMissingKeys === true).collect(template.segments, data, values);
  return values;
}

/**
 * Whether the template starts by addressing `.items` (`{.items[*].spec.cpus}`,
 * `{range .items[*]}...{end}`): kubectl's form for a list, run once on all resources.
 */
export function addressesItems(template: JsonPathTemplate): boolean {
  for (const segment of template.segments) {
    if (segment.kind === 'text') continue;
    const first = segment.path[0];
    if (first?.kind === 'literal') continue;
    return first?.kind === 'field' && first.name === 'items';
  }
  return false;
}

class Evaluator {
  constructor(private readonly allowMissingKeys: boolean) {}

  render(segments: readonly JsonPathSegment[], current: unknown): string {
    let out = '';
    for (const segment of segments) {
      if (segment.kind === 'text') out += segment.text;
      else if (segment.kind === 'action') {
        out += this.walk([current], segment.path).map(formatValue).join(' ');
      } else {
        for (const item of this.walk([current], segment.path))
          out += this.render(segment.body, item);
      }
    }
    return out;
  }

  collect(segments: readonly JsonPathSegment[], current: unknown, into: unknown[]): void {
    for (const segment of segments) {
      if (segment.kind === 'action') into.push(...this.walk([current], segment.path));
      else if (segment.kind !== 'text') {
        for (const item of this.walk([current], segment.path)) {
          this.collect(segment.body, item, into);
        }
      }
    }
  }

  walk(input: readonly unknown[], path: readonly JsonPathStep[]): unknown[] {
    let values = [...input];
    for (const step of path) values = this.step(values, step);
    return values;
  }

  private step(input: unknown[], step: JsonPathStep): unknown[] {
    switch (step.kind) {
      case 'field':
        return this.field(input, step.name);
      case 'wildcard':
        return input.flatMap(children);
      case 'recursive':
        return input.flatMap(descendants);
      case 'slice':
        return input.flatMap((value) => slice(value, step.start, step.end, step.step));
      case 'union':
        return step.branches.flatMap((branch) => this.walk(input, branch));
      case 'filter':
        return input.flatMap((value) => this.filter(value, step));
      case 'literal':
        // A quoted string stands alone; a number or a boolean stands for each value.
        return typeof step.value === 'string' ? [step.value] : input.map(() => step.value);
    }
  }

  private field(input: unknown[], name: string): unknown[] {
    // `{.}` is the current object (client-go would look up an empty key).
    if (name === '') return input;
    if (input.length === 0) return [];
    const found: unknown[] = [];
    for (const value of input) {
      if (isMap(value) && Object.hasOwn(value, name)) found.push(value[name]);
    }
    if (found.length === 0 && !this.allowMissingKeys) {
      throw new JsonPathError(`${name} is not found`);
    }
    return found;
  }

  private filter(value: unknown, step: Extract<JsonPathStep, { kind: 'filter' }>): unknown[] {
    if (value === null || value === undefined) return [];
    if (!Array.isArray(value)) {
      throw new JsonPathError(`${typeName(value)} is not array or slice and cannot be filtered`);
    }
    return value.filter((element) => {
      if (step.operator === 'exists') {
        try {
          return this.walk([element], step.left).length > 0;
        } catch {
          return false;
        }
      }
      const left = this.one(element, step.left);
      if (left.length === 0) return false;
      const right = this.one(element, step.right);
      if (right.length === 0) return false;
      return compare(left[0], step.operator, right[0]);
    });
  }

  private one(element: unknown, path: readonly JsonPathStep[]): unknown[] {
    const values = this.walk([element], path);
    if (values.length > 1) throw new JsonPathError('can only compare one element at a time');
    return values;
  }
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function children(value: unknown): unknown[] {
  if (Array.isArray(value)) return value as unknown[];
  if (isMap(value)) return Object.values(value);
  return [];
}

/** A value and every map or list under it, parents first; scalars are reached by a field. */
function descendants(value: unknown): unknown[] {
  const direct = children(value);
  if (direct.length === 0) return [];
  return [value, ...direct.flatMap(descendants)];
}

function slice(value: unknown, start: SliceBound, end: SliceBound, step: SliceBound): unknown[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new JsonPathError(`${typeName(value)} is not array or slice`);
  const length = value.length;
  let from = start.value ?? 0;
  if (from < 0) from += length;
  let to = end.value ?? length;
  if (to < 0 || (to === 0 && end.derived === true)) to += length;
  // Asking for no elements is allowed anywhere, even out of bounds.
  if (from === to) return [];
  if (from < 0 || from >= length) {
    throw new JsonPathError(`array index out of bounds: index ${from}, length ${length}`);
  }
  if (to < 0 || to > length) {
    throw new JsonPathError(`array index out of bounds: index ${to - 1}, length ${length}`);
  }
  if (from > to) {
    throw new JsonPathError(`starting index ${from} is greater than ending index ${to}`);
  }
  const by = step.value ?? 1;
  if (by <= 0) throw new JsonPathError('step must be > 0');
  const out: unknown[] = [];
  for (let i = from; i < to; i += by) out.push(value[i]);
  return out;
}

/** Go's template comparison: numbers with numbers, strings with strings, booleans by equality. */
function compare(left: unknown, operator: FilterOperator, right: unknown): boolean {
  const kind = comparableKind(left);
  if (kind !== comparableKind(right)) {
    throw new JsonPathError('incompatible types for comparison');
  }
  if (operator === '==') return left === right;
  if (operator === '!=') return left !== right;
  if (kind === 'boolean') throw new JsonPathError('invalid type for comparison');
  const [a, b] = [left as number | string, right as number | string];
  switch (operator) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

function comparableKind(value: unknown): 'number' | 'string' | 'boolean' {
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    return typeof value as 'number' | 'string' | 'boolean';
  }
  throw new JsonPathError('invalid type for comparison');
}

function typeName(value: unknown): string {
  if (isMap(value)) return 'map';
  return typeof value;
}

/** One value as kubectl prints it: maps and lists as compact JSON, anything else as text. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(sortKeys(value));
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return '';
}

/** Go's JSON encoder prints a map's keys sorted; so does kubectl. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isMap(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}
