/**
 * Checks of a JSON Schema that ajv does not make, or makes without saying where: patterns that
 * the linear-time engine refuses, local `$ref`s to nowhere, and `$ref` cycles that never descend
 * into the data (`$ref: '#'`), which would recurse until the stack overflows.
 */

import { jsonPointer, parseJsonPointer } from './json-pointer.js';
import { linearRegExpError } from './linear-regexp.js';
import type { SchemaProblem } from './schema-problem.js';

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
/** Keywords whose value is data, not schemas: nothing in them is a keyword. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);
/** Keywords that apply a subschema to the same value: a cycle through these never ends. */
const IN_PLACE = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref']);

/** One subschema: where it is and which subschemas apply to the same value. */
interface SchemaNode {
  readonly path: string;
  /** Paths of the in-place subschemas, and of the `$ref` that leads to each. */
  readonly next: { readonly target: string; readonly via: string }[];
}

/** Every problem the walk finds, in document order. */
export function checkSchema(schema: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const nodes = new Map<string, SchemaNode>();
  walkSchema(schema, [], schema, nodes, problems);
  const cycle = findCycle(nodes);
  if (cycle !== undefined) {
    problems.push({
      path: cycle,
      part: 'value',
      keyword: '$ref',
      message:
        'this $ref refers back to a schema that contains it without descending into the data, so checking any value would never end',
    });
  }
  return problems;
}

/** The path of a keyword inside the schema at which ajv's compile error names it, if found. */
export function findKeyword(schema: unknown, keyword: string): string | undefined {
  const pending: { value: unknown; path: string[] }[] = [{ value: schema, path: [] }];
  for (let item = pending.shift(); item !== undefined; item = pending.shift()) {
    const { value, path } = item;
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, keyword)) {
      return jsonPointer([...path, keyword]);
    }
    for (const [key, child] of Object.entries(value)) {
      if (!DATA_KEYWORDS.has(key)) pending.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

function walkSchema(
  value: unknown,
  path: string[],
  root: unknown,
  nodes: Map<string, SchemaNode>,
  problems: SchemaProblem[],
): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const node: SchemaNode = { path: jsonPointer(path), next: [] };
  nodes.set(node.path, node);
  const schema = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(schema)) {
    const at = [...path, key];
    if (DATA_KEYWORDS.has(key)) continue;
    if (key === 'pattern' && typeof child === 'string') {
      checkPattern(child, at, 'value', problems);
    } else if (key === '$ref' && typeof child === 'string') {
      const resolved = resolveLocalRef(child, root);
      const target = resolved === null ? null : resolved?.path;
      if (target === null) {
        problems.push({
          path: jsonPointer(at),
          part: 'value',
          keyword: '$ref',
          message: `the reference ${JSON.stringify(child)} points at nothing in this schema`,
        });
      } else if (target !== undefined) {
        node.next.push({ target, via: jsonPointer(at) });
      }
    } else if (SCHEMA_MAPS.has(key) && isObject(child)) {
      for (const [name, sub] of Object.entries(child)) {
        if (key === 'patternProperties') checkPattern(name, [...at, name], 'key', problems);
        walkSchema(sub, [...at, name], root, nodes, problems);
      }
    } else if (Array.isArray(child)) {
      child.forEach((sub, i) => {
        const subPath = [...at, String(i)];
        if (IN_PLACE.has(key)) node.next.push({ target: jsonPointer(subPath), via: '' });
        walkSchema(sub, subPath, root, nodes, problems);
      });
    } else if (isObject(child)) {
      if (IN_PLACE.has(key)) node.next.push({ target: jsonPointer(at), via: '' });
      walkSchema(child, at, root, nodes, problems);
    }
  }
}

function checkPattern(
  pattern: string,
  at: string[],
  part: 'key' | 'value',
  problems: SchemaProblem[],
): void {
  const error = linearRegExpError(pattern);
  if (error !== undefined) {
    problems.push({
      path: jsonPointer(at),
      part,
      keyword: 'pattern',
      message: `the pattern ${JSON.stringify(pattern)} is not supported: ${error} (patterns run in a linear-time engine, without lookaround or backreferences)`,
    });
  }
}

/**
 * The subschema a local `$ref` (`#`, `#/definitions/x`) names, and its path: `undefined` for
 * references that are not local (other documents, `$id`s), `null` for a local one to nothing.
 */
export function resolveLocalRef(
  ref: string,
  root: unknown,
): { readonly path: string; readonly node: unknown } | null | undefined {
  if (!ref.startsWith('#')) return undefined;
  const fragment = ref.slice(1);
  if (fragment !== '' && !fragment.startsWith('/')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(fragment);
  } catch {
    return null;
  }
  let current = root;
  for (const segment of parseJsonPointer(pointer)) {
    if (typeof current !== 'object' || current === null) return null;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return null;
    current = (current as Record<string, unknown>)[segment];
  }
  return { path: pointer, node: current };
}

/** The `$ref` that closes a cycle of in-place subschemas, if there is one. */
function findCycle(nodes: ReadonlyMap<string, SchemaNode>): string | undefined {
  const state = new Map<string, 'open' | 'done'>();
  for (const start of nodes.keys()) {
    if (state.has(start)) continue;
    // Iterative depth-first search: a schema may be deep.
    const stack: { path: string; index: number; via: string }[] = [
      { path: start, index: 0, via: '' },
    ];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { path: string; index: number; via: string };
      const edge = nodes.get(top.path)?.next[top.index++];
      if (edge === undefined) {
        state.set(top.path, 'done');
        stack.pop();
        continue;
      }
      const seen = state.get(edge.target);
      if (seen === 'open') return closingRef(stack, edge);
      if (seen === undefined && nodes.has(edge.target)) {
        state.set(edge.target, 'open');
        stack.push({ path: edge.target, index: 0, via: edge.via });
      }
    }
  }
  return undefined;
}

/** A `$ref` of the cycle that `edge` closes: the closing edge's, or the latest before it. */
function closingRef(
  stack: readonly { path: string; via: string }[],
  edge: { target: string; via: string },
): string {
  if (edge.via !== '') return edge.via;
  for (let i = stack.length - 1; i >= 0; i--) {
    const frame = stack[i] as { path: string; via: string };
    if (frame.via !== '') return frame.via;
    if (frame.path === edge.target) break;
  }
  return edge.target;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
