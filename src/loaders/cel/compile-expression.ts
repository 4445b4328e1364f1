/**
 * Compiles one CEL expression (a rule, a message expression, or another tool's expression with
 * its own variables): parsed, checked for names nothing defines, type-checked against the
 * schema of `self` (`type-check.ts`), its cost estimated (`cost-estimate.ts`), cel-go's macros
 * and comprehension charges rewritten in, and planned.
 */

import type { CelEnv } from '@bufbuild/cel';
import {
  LIBRARY_TYPE_BINDINGS,
  LIBRARY_TYPE_IDENTIFIERS,
} from './kubernetes-library/library-types.js';
import { parseExpression, planExpression, type ParsedExpression } from './cel-expression.js';
import { celEnvironmentFor } from './cel-environment.js';
import { chargeComprehension } from './comprehension-charges.js';
import { expandMacroCall, maxId } from './macro-calls.js';
import type { SchemaNode } from '../schema-node.js';
import { DYN, schemaCelType, type CelType } from './cel-types.js';
import { checkTypes, type ExprNode } from './type-check.js';
import { MAX_RECURSION_DEPTH, recursionDepth } from './parse-depth.js';
import { literalEntries } from './literal-entries.js';
import { estimateCost } from './cost-estimate.js';
import type { RuleProgram } from './compiled-rule.js';

/** Longest rule or message expression accepted, in characters. */
const MAX_EXPRESSION_LENGTH = 10_000;

/** The type names a rule may use as values (`type(self.x) == string`). */
const TYPE_NAMES = new Set([
  'bool',
  'bytes',
  'double',
  'int',
  'list',
  'map',
  'null_type',
  'string',
  'type',
  'uint',
]);

/** A function name a rule can write (operators are spelt `_+_`, `@in`). */
const OPERATOR = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables a CRD's rule sees. */
const RULE_VARIABLES: ReadonlySet<string> = new Set(['self', 'oldSelf']);

/**
 * Parses, checks and plans one expression. The check refuses names nothing defines (`declared`
 * are the variables: a CRD rule's `self` and `oldSelf` unless given; a typo in a function or
 * variable is a rule that does not compile, as in the API server, not a failure of
 * every document) and, given the schema of `self`, what its type check proves wrong
 * (`type-check.ts`: a field the schema does not declare, `self == 'abc'` on an integer, a result
 * that is not `result`'s type); the rewrite charges each comprehension for its range
 * (`comprehension-charges.ts`). `estimatedCost` is the static estimate of one evaluation
 * (`cost-estimate.ts`; 0 without `self`).
 */
export function compileExpression(
  source: string,
  self?: SelfSchema,
  env: CelEnv = celEnvironmentFor(),
  result?: 'bool' | 'string',
  declared: ReadonlySet<string> = RULE_VARIABLES,
): { program: RuleProgram; transition: boolean; estimatedCost: number } | { error: string } {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    return { error: `longer than ${MAX_EXPRESSION_LENGTH} characters` };
  }
  let parsed: ParsedExpression;
  try {
    parsed = parseExpression(source, env);
  } catch (error) {
    return {
      error: (error instanceof Error ? error.message : String(error)).replace(/^<input>:/, ''),
    };
  }
  if (recursionDepth(parsed.expr) > MAX_RECURSION_DEPTH) {
    return { error: `max recursion depth exceeded (${MAX_RECURSION_DEPTH} levels)` };
  }
  let estimatedCost = 0;
  let types: ReadonlyMap<ExprNode, CelType> | undefined;
  if (self !== undefined) {
    const typed = typeCheck(parsed.expr, self);
    types = typed.types;
    if (typed.errors.length > 0) return { error: typed.errors.join('; ') };
    const type = typed.type;
    if (result === 'bool' && type.kind !== 'dyn' && type.kind !== 'bool') {
      return { error: 'cel expression must evaluate to a bool' };
    }
    if (result === 'string' && type.kind !== 'dyn' && type.kind !== 'string') {
      return { error: 'messageExpression must evaluate to a string' };
    }
    estimatedCost = typed.estimatedCost;
  }
  const problems: string[] = [];
  let transition = false;
  /** Whether the expression names a library type (`net.IP`): its program binds them. */
  const names = { libraryTypes: false };
  let nextId = maxId(parsed.expr) + 1n;
  const visit = (node: ExprNode, scope: ReadonlySet<string>): void => {
    const { case: kind, value } = node.exprKind;
    const v = value as Record<string, unknown>;
    switch (kind) {
      case 'identExpr': {
        const name = v.name as string;
        if (name === 'oldSelf') transition = true;
        if (!scope.has(name) && !declared.has(name) && !TYPE_NAMES.has(name)) {
          problems.push(`undeclared reference to '${name}'`);
        }
        return;
      }
      case 'selectExpr': {
        const qualified = qualifiedName(node);
        const typeName =
          qualified === undefined ? undefined : LIBRARY_TYPE_IDENTIFIERS.get(qualified);
        if (
          typeName !== undefined &&
          !scope.has(qualified?.split('.')[0] ?? '') &&
          env.funcs.find(typeName.declaredWith) !== undefined
        ) {
          // `net.IP`: a type of the libraries, as a value.
          names.libraryTypes = true;
          return;
        }
        visit(v.operand as ExprNode, scope);
        return;
      }
      case 'callExpr': {
        const name = v.function as string;
        const target = v.target as ExprNode | undefined;
        const args = v.args as ExprNode[];
        // cel-go's macros with variables @bufbuild/cel's parser does not expand.
        const expanded =
          target === undefined
            ? undefined
            : expandMacroCall(env, name, target, args, () => nextId++);
        if (expanded !== undefined) {
          node.exprKind = expanded.exprKind;
          visit(node, scope);
          return;
        }
        const qualified = target === undefined ? undefined : qualifiedName(target);
        if (qualified !== undefined && env.funcs.find(`${qualified}.${name}`) !== undefined) {
          // `format.named(...)`: a namespaced function, not a method of a variable.
        } else {
          // Operators (`_&&_`, `@not_strictly_false`) are the planner's own: no rule can name one.
          if (OPERATOR.test(name) && env.funcs.find(name) === undefined) {
            problems.push(`undeclared reference to '${name}'`);
          }
          if (target !== undefined) visit(target, scope);
        }
        for (const arg of v.args as ExprNode[]) visit(arg, scope);
        return;
      }
      case 'listExpr':
        for (const element of v.elements as ExprNode[]) visit(element, scope);
        return;
      case 'structExpr':
        for (const entry of literalEntries(v)) {
          if (entry.key !== undefined) visit(entry.key, scope);
          visit(entry.value, scope);
        }
        return;
      case 'comprehensionExpr': {
        visit(v.iterRange as ExprNode, scope);
        visit(v.accuInit as ExprNode, scope);
        const inner = new Set([...scope, v.iterVar as string, v.accuVar as string]);
        if (v.iterVar2) inner.add(v.iterVar2 as string);
        for (const key of ['loopCondition', 'loopStep', 'result']) visit(v[key] as ExprNode, inner);
        chargeComprehension(v, nextId);
        nextId += 2n;
        return;
      }
      default:
        return;
    }
  };
  visit(parsed.expr, new Set());
  if (problems.length > 0) return { error: [...new Set(problems)].join('; ') };
  try {
    const planned = planExpression(env, parsed, types) as RuleProgram;
    const program: RuleProgram = names.libraryTypes
      ? (bindings) => planned({ ...LIBRARY_TYPE_BINDINGS, ...bindings })
      : planned;
    return { program, transition, estimatedCost };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The schema node a rule is written on: what `self` (and `oldSelf`) is. */
export interface SelfSchema {
  readonly node: SchemaNode;
  /** The schema's root: a CRD's rules there also see `apiVersion`, `kind` and `metadata`. */
  readonly root: boolean;
  /** The rule's `optionalOldSelf`: `oldSelf` is an optional of `self`'s type. */
  readonly optionalOldSelf?: boolean;
}

/**
 * The declared type of the rule's node, as the API server declares `self` (undefined when it
 * does not expose the node: then the rule's variables are `dyn` here).
 */
export function selfType(self: SelfSchema): CelType | undefined {
  return schemaCelType(
    self.node,
    self.root || self.node['x-kubernetes-embedded-resource'] === true,
  );
}

/** The type check and static cost estimate of an expression on the rule's node. */
function typeCheck(
  expr: ExprNode,
  self: SelfSchema,
): {
  type: CelType;
  types: ReadonlyMap<ExprNode, CelType>;
  errors: readonly string[];
  estimatedCost: number;
} {
  const declared = selfType(self);
  const type = declared ?? DYN;
  const variables = new Map<string, CelType>([
    ['self', type],
    ['oldSelf', self.optionalOldSelf === true ? { kind: 'optional', value: type } : type],
  ]);
  const checked = checkTypes(expr, variables);
  return {
    type: checked.type,
    types: checked.types,
    errors: checked.errors,
    estimatedCost: checked.errors.length > 0 ? 0 : estimateCost(expr, checked.types, declared),
  };
}

/** `a.b.c` when `node` is a chain of selects on an identifier. */
function qualifiedName(node: ExprNode): string | undefined {
  const v = node.exprKind.value as Record<string, unknown>;
  if (node.exprKind.case === 'identExpr') return v.name as string;
  if (node.exprKind.case === 'selectExpr' && v.testOnly !== true) {
    const operand = qualifiedName(v.operand as ExprNode);
    return operand === undefined ? undefined : `${operand}.${v.field as string}`;
  }
  return undefined;
}
