/**
 * Rendering of `${...}` templates, shared by the declarative controllers (kro RGDs,
 * `Transforms.cosi.dev`): the expressions come compiled (the loaders know CEL, this module does
 * not), each a function of a scope. A field an expression reads that is absent is not an error:
 * the expression waits, and so does what it renders.
 */

import { deepClone } from '../engine/resource/plain-data.js';

/**
 * What kro's `omit()` gives: a field (or list element) whose value is this is left out of the
 * rendered document, as kro's resolver removes the field holding its omit sentinel. A symbol,
 * so that it can never be a value of a document that leaves the renderer.
 */
export const OMIT: unique symbol = Symbol('omit()');

/** What evaluating one `${...}` expression gave. */
export type ExpressionOutcome =
  | { readonly value: unknown }
  /** A field the expression reads is absent (not written yet, maybe never offline): wait. */
  | { readonly missing: string }
  | { readonly error: string };

/** One `${...}` expression, compiled. */
export interface GraphExpression {
  /** The text between `${` and `}`. */
  readonly source: string;
  /** `file:line:col` of the expression, for messages. */
  readonly location: string;
  /** The variables it reads (an RGD: resource ids and `schema`; a transform: `self`). */
  readonly references: readonly string[];
  /** It calls `omit()`: its value may be, or hold, {@link OMIT}. */
  readonly omits?: boolean;
  evaluate(scope: Readonly<Record<string, unknown>>): ExpressionOutcome;
}

/** A string of a template holding expressions: where it is, and its literal and expression parts. */
export interface TemplateField {
  readonly path: readonly (string | number)[];
  /** The whole string is one `${...}`: the field takes the expression's value, of any type. */
  readonly standalone: boolean;
  readonly parts: readonly (string | GraphExpression)[];
}

/**
 * Where a path of a template is written: `file:line:col` of its node, or of the nearest node
 * above it that the template has (a field an expression's map or list value made).
 */
export type LocateTemplate = (path: readonly (string | number)[]) => string;

/** Where a rendered field comes from: its template line, and the expressions that made it. */
export interface TemplateOrigin {
  /** `file:line:col`: the expression's, when an expression made the field. */
  readonly location: string;
  /** The `${...}` sources that made it (none: the template's literal value). */
  readonly expressions: readonly string[];
}

/**
 * The origin of `path` of what a template renders: the template field at the path or above it
 * (a standalone expression whose value holds the path), else the template node, with the
 * expressions below it.
 */
export function templateOrigin(
  fields: readonly TemplateField[],
  locate: LocateTemplate,
  path: readonly string[],
): TemplateOrigin {
  for (const field of fields) {
    if (field.path.length > path.length) continue;
    if (!field.path.every((key, i) => String(key) === path[i])) continue;
    const expressions = field.parts.filter((part) => typeof part !== 'string');
    return {
      location: expressions[0]?.location ?? locate(field.path),
      expressions: expressions.map((e) => e.source),
    };
  }
  // A list or map the template writes out: its node, and the expressions inside it.
  const below = fields.filter(
    (field) =>
      field.path.length > path.length && path.every((key, i) => String(field.path[i]) === key),
  );
  return {
    location: locate(path),
    expressions: below.flatMap((field) =>
      field.parts.flatMap((part) => (typeof part === 'string' ? [] : [part.source])),
    ),
  };
}

/** What rendering a template, a field or a condition gave. */
export type Rendered =
  | { readonly state: 'done'; readonly value: unknown }
  | { readonly state: 'waiting'; readonly reason: string }
  | { readonly state: 'error'; readonly message: string };

/** All conditions hold (true), one is false, or one waits or fails. */
export function evaluateConditions(
  conditions: readonly GraphExpression[],
  scope: Readonly<Record<string, unknown>>,
): { state: 'done'; value: boolean } | Exclude<Rendered, { state: 'done' }> {
  for (const condition of conditions) {
    const outcome = condition.evaluate(scope);
    if ('missing' in outcome) {
      return { state: 'waiting', reason: `\${${condition.source}} (${outcome.missing})` };
    }
    if ('error' in outcome) {
      return {
        state: 'error',
        message: `\${${condition.source}} at ${condition.location}: ${outcome.error}`,
      };
    }
    if (typeof outcome.value !== 'boolean') {
      return {
        state: 'error',
        message: `\${${condition.source}} at ${condition.location} must be a boolean, not ${describe(outcome.value)}`,
      };
    }
    if (!outcome.value) return { state: 'done', value: false };
  }
  return { state: 'done', value: true };
}

/**
 * The `readyWhen` of a forEach resource, as kro's checkCollectionReadiness
 * (pkg/runtime/node_readiness.go): every item, bound to `each`, must satisfy every condition; an
 * empty collection is ready.
 */
export function evaluateCollectionConditions(
  conditions: readonly GraphExpression[],
  items: readonly unknown[],
): ReturnType<typeof evaluateConditions> & { readonly item?: string } {
  for (const item of items) {
    const outcome = evaluateConditions(conditions, { each: item });
    if (outcome.state !== 'done' || !outcome.value) {
      // The first item that is not ready, by name, so that what waits can say which.
      const name = (item as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
      return typeof name === 'string' ? { ...outcome, item: name } : outcome;
    }
  }
  return { state: 'done', value: true };
}

/** A copy of the template with every field rendered. */
export function renderTemplate(
  template: Readonly<Record<string, unknown>>,
  fields: readonly TemplateField[],
  scope: Readonly<Record<string, unknown>>,
): Rendered {
  // A template is YAML data: a plain deep copy, many times cheaper than `structuredClone`.
  const document = deepClone(template) as Record<string, unknown>;
  let omits = false;
  for (const field of fields) {
    const value = renderField(field, scope);
    if (value.state !== 'done') return value;
    setPath(document, field.path, value.value);
    omits ||= field.parts.some((part) => typeof part !== 'string' && part.omits === true);
  }
  return { state: 'done', value: omits ? withoutOmitted(document) : document };
}

/**
 * The document without what `omit()` gave: every map key and list element holding {@link OMIT}
 * is removed, at any depth (as kro's resolver cleans its omit sentinels after resolving).
 */
export function withoutOmitted<T>(value: T): T {
  if (Array.isArray(value)) {
    return value.filter((item) => item !== OMIT).map(withoutOmitted) as T;
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== OMIT) out[key] = withoutOmitted(item);
    }
    return out as T;
  }
  return value;
}

/** One field: a standalone expression's value, or the string its parts make. */
export function renderField(
  field: TemplateField,
  scope: Readonly<Record<string, unknown>>,
): Rendered {
  let text = '';
  for (const part of field.parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    const outcome = part.evaluate(scope);
    if ('missing' in outcome) {
      return { state: 'waiting', reason: `\${${part.source}} (${outcome.missing})` };
    }
    if ('error' in outcome) {
      return {
        state: 'error',
        message: `\${${part.source}} at ${part.location}: ${outcome.error}`,
      };
    }
    if (field.standalone) return { state: 'done', value: outcome.value };
    if (typeof outcome.value !== 'string') {
      return {
        state: 'error',
        message: `rgd-type-mismatch: \${${part.source}} at ${part.location} is ${describe(outcome.value)}, but a string template needs strings (use string(...))`,
      };
    }
    text += outcome.value;
  }
  return { state: 'done', value: text };
}

/** Sets `path` below `root`, making the maps and lists on the way. */
export function setPath(
  root: Record<string, unknown>,
  path: readonly (string | number)[],
  value: unknown,
): void {
  let node: unknown = root;
  for (const [i, key] of path.entries()) {
    const last = i === path.length - 1;
    const container = node as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
      return;
    }
    let next = container[key];
    if (typeof next !== 'object' || next === null) {
      next = typeof path[i + 1] === 'number' ? [] : {};
      container[key] = next;
    }
    node = next;
  }
}

/** A value's CEL-ish type, for messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an int' : 'a double';
  return `a ${typeof value}`;
}
