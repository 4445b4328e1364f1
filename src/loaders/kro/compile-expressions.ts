/**
 * The `${...}` expressions of an RGD's strings compiled (`graph-cel.ts`): each refused where kro
 * refuses it (one that does not parse, uses `runtime` outside `status.conditions`, an unknown
 * function, `omit()` where it may not be, a variable that is neither `schema`, a resource id nor
 * one the place allows), its references recorded as the resource's dependencies, and kept in
 * the compile's record for the type checks that run once every kind is known
 * (`graph-type-checks.ts`).
 */

import type { GraphExpression, TemplateField } from '../../controllers/resource-graph.js';
import type { DocumentReport } from '../document-report.js';
import { formatLocation, type FindingCode, type SourceLocation } from '../finding.js';
import { jsonPointer } from '../json-pointer.js';
import type { CompiledGraphExpression, VariableSchemas } from './graph-cel.js';
import { fail, failAt, type GraphCompilation } from './graph-compilation.js';
import type { ExpressionCheck } from './expression-checks.js';
import { fieldPathOf } from './reference-types.js';
import {
  expressionLocation,
  scanTemplateString,
  stringsWithExpressions,
  type ExpressionSpan,
} from './template-expressions.js';

/** The context of the entries of `spec.schema.status.conditions`: kro's custom conditions. */
export const STATUS_CONDITIONS = 'status conditions';

/** The type of the value of each kind of expression that is not a template field. */
const CONTEXT_TYPES: Readonly<Record<string, string>> = {
  includeWhen: 'boolean',
  readyWhen: 'boolean',
  forEach: 'array',
};

/**
 * Compiles the expressions of the strings below `at`, for the resource `c.owner` names; the
 * `allowed` variables may be referenced besides schema and the resources, and the resources
 * referenced go `into` its dependencies. `context` names where they are when it is not a
 * resource template (`includeWhen`...): `omit()` is refused there. `undefined` when one is
 * refused.
 */
export function compileStrings(
  c: GraphCompilation,
  root: unknown,
  at: (string | number)[],
  allowed: ReadonlySet<string>,
  into: Set<string>,
  context?: string,
): TemplateField[] | undefined {
  const fields: TemplateField[] = [];
  let ok = true;
  const refuse = (location: SourceLocation, code: FindingCode, message: string): void => {
    ok = false;
    failAt(c, location, code, message);
  };
  for (const { path, text } of stringsWithExpressions(root)) {
    const where = [...at, ...path];
    const scanned = scanTemplateString(text);
    if (scanned === undefined) continue;
    if ('error' in scanned) {
      fail(c, 'rgd-bad-expression', where, scanned.error);
      ok = false;
      continue;
    }
    const place: ExpressionPlace = {
      where,
      path,
      text,
      standalone: scanned.standalone,
      allowed,
      into,
      ...(context === undefined ? {} : { context }),
    };
    const parts: (string | GraphExpression)[] = [];
    for (const part of scanned.parts) {
      if (typeof part === 'string') {
        parts.push(part);
        continue;
      }
      const expression = compileExpression(c, place, part, refuse);
      if (expression !== undefined) parts.push(expression);
    }
    fields.push({ path, standalone: scanned.standalone, parts });
    if (!scanned.standalone && context === undefined) {
      c.stringTemplates.push({ owner: c.owner.id, target: path, text, where });
    }
  }
  return ok ? fields : undefined;
}

/** Where an expression is: its string, and what the place lets it reference. */
interface ExpressionPlace {
  /** The string's path in the RGD. */
  readonly where: (string | number)[];
  /** The string's path below the root compiled (a template's field). */
  readonly path: (string | number)[];
  readonly text: string;
  /** The string is the one expression (`"${...}"`), not a string template. */
  readonly standalone: boolean;
  readonly allowed: ReadonlySet<string>;
  readonly into: Set<string>;
  readonly context?: string;
}

/**
 * Compiles one expression of a string, and keeps it for the type checks; `undefined` when it is
 * refused before its references are read (one refused for a reference is kept all the same, as
 * its type is checked too).
 */
function compileExpression(
  c: GraphCompilation,
  place: ExpressionPlace,
  part: ExpressionSpan,
  refuse: (location: SourceLocation, code: FindingCode, message: string) => void,
): GraphExpression | undefined {
  const { where, path, text, standalone, context } = place;
  const exprLocation = expressionLocation(c.report, jsonPointer(where), text, part);
  const compiled = c.cel.compileGraphExpression(part.source, c.options.kubernetesVersion);
  const findingAt = (code: FindingCode, message: string): void =>
    refuse(exprLocation, code, message);
  if ('error' in compiled) {
    // At the token the parser stopped at (`1:18: found + ...`), when the expression is
    // written in the file as in the string (no escape, one line); else at its `${`.
    const token = tokenLocation(c.report, jsonPointer(where), part.source, compiled.error);
    refuse(
      token !== undefined &&
        token.start.line === exprLocation.line &&
        token.start.col === exprLocation.col
        ? { ...exprLocation, col: exprLocation.col + token.columns }
        : exprLocation,
      'rgd-bad-expression',
      `\${${part.source}} does not compile: ${compiled.error}`,
    );
    return undefined;
  }
  if (
    (compiled.runtime.uses || compiled.variables.includes('runtime')) &&
    context !== STATUS_CONDITIONS
  ) {
    // kro's runtime library (v0.9.x: runtime.newCondition, runtime.condition) is bound
    // only in status.conditions (builder.go extractDependencies, buildConditions).
    findingAt(
      'rgd-bad-expression',
      `\${${part.source}}: runtime is only available in status.conditions expressions, as kro requires`,
    );
    return undefined;
  }
  if (context === STATUS_CONDITIONS) {
    c.conditionEntries.push({
      source: part.source,
      at: exprLocation,
      runtime: compiled.runtime,
      check: compiled.check,
    });
  }
  if (compiled.unknownFunctions.length > 0) {
    // kro's build refuses it (builder.go: "uses unknown functions"); cosi's planner would
    // fail only when an instance renders it.
    findingAt(
      'rgd-bad-expression',
      `\${${part.source}} uses unknown functions: ${compiled.unknownFunctions.join(', ')}`,
    );
    return undefined;
  }
  const omitProblem = compiled.usesOmit ? whereOmitIsRefused(context, standalone, path) : undefined;
  if (omitProblem !== undefined) {
    findingAt('rgd-bad-expression', `\${${part.source}}: omit() ${omitProblem}`);
    return undefined;
  }
  if (compiled.usesOmit) {
    // cosi renders omit() as kro does with the gate on; kro refuses it with the gate off
    // (its default: pkg/features/features.go, builder.go extractDependencies).
    c.report.findings.push({
      ...exprLocation,
      code: 'rgd-feature-gate',
      severity: 'warning',
      message: `\${${part.source}}: omit() requires kro's CELOmitFunction feature gate, which is off by default (--feature-gates=CELOmitFunction=true); a kro without it refuses this RGD`,
    });
  }
  const references = expressionReferences(
    c,
    place,
    part.source,
    compiled.variables,
    exprLocation,
    findingAt,
  );
  keepForTypeCheck(c, place, part.source, compiled, exprLocation);
  return toGraphExpression(
    part.source,
    formatLocation(exprLocation),
    references,
    compiled,
    c.schemasFor(c.owner.id),
  );
}

/**
 * The variables an expression references that its place accepts (`schema`, a resource id, one
 * the place allows); each resource among them becomes a dependency (`place.into`, its first
 * reference's place `at` kept for a cycle's finding), and each other is refused.
 */
function expressionReferences(
  c: GraphCompilation,
  { path, allowed, into, context }: ExpressionPlace,
  source: string,
  variables: readonly string[],
  at: SourceLocation,
  findingAt: (code: FindingCode, message: string) => void,
): string[] {
  const references: string[] = [];
  for (const variable of variables) {
    // kro's readyWhen sees only the resource itself (each item, as `each`, of a collection).
    const accepted =
      context === 'readyWhen'
        ? allowed.has(variable)
        : variable === 'schema' || allowed.has(variable) || c.known.has(variable);
    if (accepted) {
      references.push(variable);
      if (variable !== 'schema' && !allowed.has(variable)) {
        into.add(variable);
        const key = `${c.owner.id}->${variable}`;
        if (!c.refAt.has(key)) c.refAt.set(key, at);
      }
    } else if (context === 'readyWhen') {
      findingAt(
        'rgd-unknown-ref',
        `\${${source}} references ${JSON.stringify(variable)}: a readyWhen may reference only ${allowed.has('each') ? 'each (one item of this forEach resource)' : `the resource itself (${[...allowed].join('')})`}, as kro allows`,
      );
    } else if (context === 'forEach' && c.owner.forEach.has(variable)) {
      // kro builder.go: the iterators of a forEach are independent (a cartesian product).
      findingAt(
        'rgd-unknown-ref',
        `\${${source}}: forEach iterator ${JSON.stringify(String(path[0]))} cannot reference other iterators [${variable}] - forEach iterators are independent (cartesian product)`,
      );
    } else {
      findingAt(
        'rgd-unknown-ref',
        `\${${source}} references ${JSON.stringify(variable)}, which is neither schema nor the id of a resource of this RGD (${[...c.known].join(', ') || 'none'})`,
      );
    }
  }
  return references;
}

/**
 * Keeps an expression for the type checks that run once every kind is known: a plain field path
 * of `schema` or a resource for `field-path-checks.ts`, any other for `expression-checks.ts`.
 */
function keepForTypeCheck(
  c: GraphCompilation,
  { path, standalone, context }: ExpressionPlace,
  source: string,
  compiled: CompiledGraphExpression,
  at: SourceLocation,
): void {
  const field = fieldPathOf(source);
  const check: ExpressionCheck = {
    source,
    check: compiled.check,
    at,
    standalone,
    owner: c.owner.id,
    iterators: c.owner.iterators,
    ...(context === undefined ? { target: path } : {}),
    ...(context !== undefined && CONTEXT_TYPES[context] !== undefined
      ? { context, expect: CONTEXT_TYPES[context] }
      : {}),
  };
  c.lastTypeCheck = compiled.check;
  if (context === 'the instance status' && standalone) {
    c.statusChecks.set(path, compiled.check);
  }
  if (field !== undefined && (field.root === 'schema' || c.known.has(field.root))) {
    c.fieldChecks.push({ ...check, field });
  } else c.expressionChecks.push(check);
}

function toGraphExpression(
  source: string,
  location: string,
  references: readonly string[],
  compiled: CompiledGraphExpression,
  schemaOf: VariableSchemas,
): GraphExpression {
  return {
    source,
    location,
    references,
    ...(compiled.usesOmit ? { omits: true } : {}),
    evaluate: (scope) => compiled.evaluate(scope, schemaOf),
  };
}

/**
 * Where the first occurrence of an expression's text up to the token a CEL error names
 * (`1:18: ...`, line 1) starts in the file, and how many columns that text spans; `undefined`
 * for an error on a later line of the expression, or that names no position.
 */
function tokenLocation(
  report: DocumentReport,
  pointer: string,
  source: string,
  error: string,
): { start: SourceLocation; columns: number } | undefined {
  const position = /^1:(\d+):/.exec(error);
  if (position === null) return undefined;
  const prefix = `\${${source.slice(0, Number(position[1]) - 1)}`;
  if (prefix.includes('\n')) return undefined;
  const start = report.textLocation(pointer, prefix, 0);
  // Text not found is located at the scalar's start: the same text less its `$` found one
  // column on says the file holds it as written.
  const next = report.textLocation(pointer, prefix.slice(1), 0);
  if (next.line !== start.line || next.col !== start.col + 1) return undefined;
  return { start, columns: prefix.length };
}

/**
 * Why `omit()` may not be where it is, as kro refuses it: outside a resource template
 * (`context`), in a string template, or in `metadata.name` (without a name there is no
 * resource); `undefined` where it may be.
 */
function whereOmitIsRefused(
  context: string | undefined,
  standalone: boolean,
  path: readonly (string | number)[],
): string | undefined {
  if (context !== undefined) {
    return `can only be used in resource template expressions, not in ${context}`;
  }
  if (!standalone) {
    return 'can only be a whole field\'s value ("${...}"), not part of a string template';
  }
  if (path.length === 2 && path[0] === 'metadata' && path[1] === 'name') {
    return 'cannot be used in metadata.name: the field is required and must resolve to a value';
  }
  return undefined;
}
