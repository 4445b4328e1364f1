/**
 * A conservative type check of a parsed CEL expression, after cel-go's checker as the API server
 * runs it on a rule: `@bufbuild/cel` parses and evaluates but has no checker for calls and
 * selections. Each node gets a {@link CelType}; wherever cosi cannot tell a type exactly (a
 * library function, an unknown name, a macro it does not expand, `x-kubernetes-int-or-string`)
 * the type is `dyn`, and nothing involving `dyn` is reported. What is reported is what cel-go
 * reports for certain, in its words:
 *
 * - `undefined field 'x'`: a field an object type of the schema does not have (preserved unknown
 *   fields are not fields of the type, as in the API server);
 * - `type 'int' does not support field selection`;
 * - `found no matching overload for '_==_' applied to '(int, string)'`: an operator, `size` or
 *   `orValue` on two known types it has no overload for (numbers of different kinds are left
 *   alone where cross-type numeric comparison may apply);
 * - `expression of type 'int' cannot be range of a comprehension (must be list, map, or
 *   dynamic)`.
 */

import {
  CONDITION_TYPE,
  DYN,
  fieldType,
  formatCelType,
  isPrimitive,
  primitive,
  type CelType,
  type PrimitiveKind,
} from './cel-types.js';
import { isBindCall } from './bind-call.js';
import { literalEntries } from './literal-entries.js';
import { OPT_INDEX, OPT_SELECT, type ExprNode } from './optional-syntax.js';

export type { ExprNode };

/** The outcome of a check: the expression's type, the types of its nodes, and what is wrong. */
export interface TypeCheck {
  readonly type: CelType;
  /** The type of every node visited, for the cost estimate. */
  readonly types: ReadonlyMap<ExprNode, CelType>;
  readonly errors: readonly string[];
  /** Each `undefined field` error's field, with the fields its object type has. */
  readonly unknownFields: readonly UnknownField[];
}

/** A field selected on an object type that does not have it. */
export interface UnknownField {
  readonly field: string;
  readonly known: readonly string[];
}

const NUMERIC = new Set<string>(['int', 'uint', 'double']);

/** The conversions whose result type is their name, whatever they are applied to. */
const CONVERSIONS = new Set<string>([
  'int',
  'uint',
  'double',
  'string',
  'bytes',
  'bool',
  'duration',
  'timestamp',
]);

/** Operand kinds each arithmetic operator has an overload for, both operands of one kind. */
const ARITHMETIC: Readonly<Record<string, ReadonlySet<string>>> = {
  '_+_': new Set(['int', 'uint', 'double', 'string', 'bytes', 'duration']),
  '_-_': new Set(['int', 'uint', 'double', 'duration', 'timestamp']),
  '_*_': new Set(['int', 'uint', 'double']),
  '_/_': new Set(['int', 'uint', 'double']),
  '_%_': new Set(['int', 'uint']),
};

const ORDERING = new Set(['_<_', '_<=_', '_>_', '_>=_']);

/**
 * The result types of the Kubernetes libraries' functions whose name says it whatever they are
 * called on (k8s.io/apiserver `pkg/cel/library`): what the cost estimate and the checks on what
 * uses the result read.
 */
const LIBRARY_RESULTS: Readonly<Record<string, PrimitiveKind>> = {
  isSorted: 'bool',
  indexOf: 'int',
  lastIndexOf: 'int',
  isQuantity: 'bool',
  isSemver: 'bool',
  isIP: 'bool',
  isCIDR: 'bool',
  isURL: 'bool',
  isInteger: 'bool',
  isLessThan: 'bool',
  isGreaterThan: 'bool',
  isUnspecified: 'bool',
  isLoopback: 'bool',
  isLinkLocalMulticast: 'bool',
  isLinkLocalUnicast: 'bool',
  isGlobalUnicast: 'bool',
  isCanonical: 'bool',
  containsIP: 'bool',
  containsCIDR: 'bool',
  asInteger: 'int',
  compareTo: 'int',
  sign: 'int',
  major: 'int',
  minor: 'int',
  patch: 'int',
  family: 'int',
  prefixLength: 'int',
  asApproximateFloat: 'double',
  getScheme: 'string',
  getHostname: 'string',
  getHost: 'string',
  getPort: 'string',
  getEscapedPath: 'string',
};

/**
 * The result types of kro's namespaced functions (`pkg/cel/library`; its docs' tables): an RGD
 * that writes `hash.sha256(...)` (bytes) to a string field is refused when it loads, as kro's
 * checker refuses it. A CRD rule's environment has none of them.
 */
const KRO_LIBRARY_RESULTS: Readonly<Record<string, PrimitiveKind>> = {
  'hash.sha256': 'bytes',
  'hash.md5': 'bytes',
  'hash.fnv64a': 'bytes',
  'base64.encode': 'string',
  'base64.decode': 'bytes',
  'json.marshal': 'string',
  'random.seededString': 'string',
  'random.seededInt': 'int',
};

/** The variables in scope and their types (a map, or a comprehension's over its parent). */
interface Scope {
  get(name: string): CelType | undefined;
  has(name: string): boolean;
}

/** `own` over `parent`: a scope's own variables without copying the enclosing ones. */
function layered(own: ReadonlyMap<string, CelType>, parent: Scope): Scope {
  return {
    get: (name) => own.get(name) ?? parent.get(name),
    has: (name) => own.has(name) || parent.has(name),
  };
}

/** `parent` with one more variable. */
function withVariable(parent: Scope, name: string, type: CelType): Scope {
  return layered(new Map([[name, type]]), parent);
}

/**
 * Checks `expr` with `variables` (`self`, `oldSelf`) of the given types; other identifiers are
 * `dyn`.
 */
export function checkTypes(expr: ExprNode, variables: ReadonlyMap<string, CelType>): TypeCheck {
  const types = new Map<ExprNode, CelType>();
  const errors: string[] = [];
  const unknownFields: UnknownField[] = [];
  /** How many calls exempt from the homogeneous-literal check enclose the node visited. */
  let exempt = 0;
  const noOverload = (name: string, args: readonly CelType[], target?: CelType): void => {
    const list = args.map(formatCelType).join(', ');
    errors.push(
      `found no matching overload for '${name}' applied to '${
        target === undefined ? `(${list})` : `${formatCelType(target)}.(${list})`
      }'`,
    );
  };

  const check = (node: ExprNode, scope: Scope): CelType => {
    const type = visit(node, scope);
    types.set(node, type);
    return type;
  };

  const visit = (node: ExprNode, scope: Scope): CelType => {
    const v = node.exprKind.value as Record<string, unknown>;
    switch (node.exprKind.case) {
      case 'constExpr':
        return constantType((v.constantKind as { case: string | undefined }).case);
      case 'identExpr':
        return scope.get(v.name as string) ?? DYN;
      case 'selectExpr': {
        const operand = check(v.operand as ExprNode, scope);
        const result = selectField(operand, v.field as string, errors, unknownFields);
        return v.testOnly === true ? primitive('bool') : result;
      }
      case 'listExpr': {
        const optionals = new Set(v.optionalIndices as number[] | undefined);
        const elements = (v.elements as ExprNode[]).map((element, i) => {
          const type = check(element, scope);
          return optionals.has(i) ? unwrapOptional(type, errors) : type;
        });
        if (exempt === 0) requireHomogeneous(elements, errors);
        return { kind: 'list', elem: commonPrimitive(elements) ?? DYN };
      }
      case 'structExpr': {
        const keys: CelType[] = [];
        const values: CelType[] = [];
        for (const entry of literalEntries(v)) {
          if (entry.key !== undefined) keys.push(check(entry.key, scope));
          const type = check(entry.value, scope);
          values.push(entry.optional ? unwrapOptional(type, errors) : type);
        }
        if (v.messageName) return DYN;
        if (exempt === 0) {
          requireHomogeneous(keys, errors);
          requireHomogeneous(values, errors);
        }
        return {
          kind: 'map',
          key: commonPrimitive(keys) ?? DYN,
          value: commonPrimitive(values) ?? DYN,
        };
      }
      case 'comprehensionExpr': {
        const range = check(v.iterRange as ExprNode, scope);
        let element: CelType = DYN;
        if (range.kind === 'list') element = range.elem;
        else if (range.kind === 'map') element = range.key;
        else if (isPrimitive(range)) {
          errors.push(
            `expression of type '${formatCelType(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
          );
        }
        const accumulator = check(v.accuInit as ExprNode, scope);
        // The comprehension's own variables over the enclosing scope (not a copy of it: an RGD's
        // scope holds every resource id, and each macro would copy them all).
        const own = new Map<string, CelType>([
          [v.accuVar as string, accumulator],
          [v.iterVar as string, element],
        ]);
        if (typeof v.iterVar2 === 'string' && v.iterVar2 !== '') own.set(v.iterVar2, DYN);
        const inner = layered(own, scope);
        check(v.loopCondition as ExprNode, inner);
        check(v.loopStep as ExprNode, inner);
        const result = check(v.result as ExprNode, inner);
        return appendedList(v, types) ?? result;
      }
      case 'callExpr':
        return checkCall(
          v.function as string,
          v.target as ExprNode | undefined,
          v.args as ExprNode[],
          scope,
        );
      default:
        return DYN;
    }
  };

  const checkCall = (
    called: string,
    calledOn: ExprNode | undefined,
    argNodes: readonly ExprNode[],
    scope: Scope,
  ): CelType => {
    // `optional.of(x)` parses as a call of `of` on the name `optional`: a namespaced function.
    const namespace = namespaceOf(calledOn, scope);
    const [variable, key] = argNodes;
    if (
      called === 'sortBy' &&
      namespace === undefined &&
      calledOn !== undefined &&
      argNodes.length === 2 &&
      variable?.exprKind.case === 'identExpr' &&
      key !== undefined
    ) {
      // cel-go's `sortBy` macro: the key is an expression of each item, bound to the variable;
      // the result is the list, sorted.
      const list = check(calledOn, scope);
      check(
        key,
        withVariable(
          scope,
          (variable.exprKind.value as { name: string }).name,
          list.kind === 'list' ? list.elem : DYN,
        ),
      );
      return list.kind === 'list' ? list : DYN;
    }
    if (isBindCall(called, calledOn, argNodes) && !scope.has('cel')) {
      // cel-go's `cel.bind(x, init, body)` (kro's environment has it): `body` sees `x` as `init`.
      const [variable, init, body] = argNodes as [ExprNode, ExprNode, ExprNode];
      const bound = (variable.exprKind.value as { name: string }).name;
      return check(body, withVariable(scope, bound, check(init, scope)));
    }
    const name = namespace === undefined ? called : `${namespace}.${called}`;
    const targetNode = namespace === undefined ? calledOn : undefined;
    const target = targetNode === undefined ? undefined : check(targetNode, scope);
    // `format`'s argument list mixes types by design: cel-go exempts the literals inside it.
    const exempting = HOMOGENEITY_EXEMPT.has(name);
    if (exempting) exempt++;
    const args = argNodes.map((arg) => check(arg, scope));
    if (exempting) exempt--;
    const [a, b] = args;
    if (target === undefined && a !== undefined && b !== undefined && args.length === 2) {
      if (name === '_==_' || name === '_!=_') {
        if (mismatched(a, b)) noOverload(name, args);
        return primitive('bool');
      }
      if (ORDERING.has(name)) {
        if (mismatched(a, b)) noOverload(name, args);
        return primitive('bool');
      }
      const kinds = ARITHMETIC[name];
      if (kinds !== undefined) return arithmetic(name, a, b, kinds, args);
      if (name === '_&&_' || name === '_||_') {
        if (args.some((arg) => isKnown(arg) && arg.kind !== 'bool') || args.some(isOptional)) {
          noOverload(name, args);
        }
        return primitive('bool');
      }
      if (name === '_[_]' || name === OPT_INDEX) {
        const container = a.kind === 'optional' ? a.value : a;
        const element =
          container.kind === 'list'
            ? container.elem
            : container.kind === 'map'
              ? container.value
              : DYN;
        return name === OPT_INDEX || a.kind === 'optional' ? optionalOf(element) : element;
      }
      if (name === OPT_SELECT) {
        const field = argNodes[1]?.exprKind;
        const fieldName =
          field?.case === 'constExpr'
            ? (field.value as { constantKind: { case?: string; value?: unknown } }).constantKind
            : undefined;
        if (fieldName?.case !== 'stringValue') {
          errors.push('unsupported optional field selection');
          return optionalOf(DYN);
        }
        const selected = selectField(a, fieldName.value as string, errors, unknownFields);
        return selected.kind === 'optional' ? selected : optionalOf(selected);
      }
      if (name === '@in') return primitive('bool');
    }
    if (target === undefined && args.length === 3 && name === '_?_:_' && a !== undefined) {
      const [, yes, no] = args as [CelType, CelType, CelType];
      if ((isKnown(a) && a.kind !== 'bool') || isOptional(a)) noOverload(name, args);
      return isPrimitive(yes) && isPrimitive(no) && yes.kind === no.kind
        ? primitive(yes.kind)
        : DYN;
    }
    if (target === undefined && args.length === 1 && a !== undefined) {
      if (name === '!_') {
        if ((isKnown(a) && a.kind !== 'bool') || isOptional(a)) noOverload(name, args);
        return primitive('bool');
      }
      if (name === '-_') {
        if ((isKnown(a) && !['int', 'double', 'duration'].includes(a.kind)) || isOptional(a)) {
          noOverload(name, args);
        }
        return isPrimitive(a) ? primitive(a.kind) : DYN;
      }
      if (name === '@not_strictly_false') return primitive('bool');
      if (CONVERSIONS.has(name)) return primitive(name as PrimitiveKind);
    }
    if (name === 'size' && args.length + (target === undefined ? 0 : 1) === 1) {
      const of = target ?? a;
      if (
        of !== undefined &&
        (isKnown(of) || isOptional(of)) &&
        of.kind !== 'string' &&
        of.kind !== 'bytes'
      ) {
        if (target === undefined) noOverload(name, args);
        else noOverload(name, [], target);
      }
      return primitive('int');
    }
    if (target !== undefined && target.kind === 'string' && args.length === 1) {
      if (['contains', 'startsWith', 'endsWith', 'matches'].includes(name))
        return primitive('bool');
    }
    if (target !== undefined && target.kind === 'optional') {
      if (name === 'hasValue' && args.length === 0) return primitive('bool');
      if (name === 'value' && args.length === 0) return target.value;
      if (name === 'orValue' && a !== undefined && args.length === 1) {
        if (mismatched(target.value, a)) noOverload(name, args, target);
        return target.value;
      }
      if (name === 'or' && a !== undefined && args.length === 1) {
        if (isPrimitive(a)) noOverload(name, args, target);
        return target;
      }
    }
    if (target === undefined && args.length <= 1) {
      if ((name === 'optional.of' || name === 'optional.ofNonZeroValue') && a !== undefined) {
        return optionalOf(a);
      }
      if (name === 'optional.none' && a === undefined) return optionalOf(DYN);
    }
    if (target?.kind === 'list' && args.length === 0 && (name === 'first' || name === 'last')) {
      return optionalOf(target.elem);
    }
    if (name === 'runtime.newCondition' || name === 'runtime.condition') return CONDITION_TYPE;
    if (target !== undefined || args.length > 0) {
      const result =
        LIBRARY_RESULTS[name] ?? (target === undefined ? KRO_LIBRARY_RESULTS[name] : undefined);
      if (result !== undefined) return primitive(result);
    }
    return DYN;
  };

  const arithmetic = (
    name: string,
    a: CelType,
    b: CelType,
    kinds: ReadonlySet<string>,
    args: readonly CelType[],
  ): CelType => {
    if (isOptional(a) || isOptional(b)) {
      if (isPrimitive(a) || isPrimitive(b) || (isOptional(a) && isOptional(b)))
        noOverload(name, args);
      return DYN;
    }
    if (!isPrimitive(a) || !isPrimitive(b)) {
      if (name === '_+_' && a.kind === 'list' && b.kind === 'list')
        return { kind: 'list', elem: DYN };
      return DYN;
    }
    if (a.kind === b.kind && kinds.has(a.kind)) {
      return name === '_-_' && a.kind === 'timestamp' ? primitive('duration') : primitive(a.kind);
    }
    if (
      name === '_+_' &&
      ((a.kind === 'timestamp' && b.kind === 'duration') ||
        (a.kind === 'duration' && b.kind === 'timestamp'))
    ) {
      return primitive('timestamp');
    }
    if (name === '_-_' && a.kind === 'timestamp' && b.kind === 'duration')
      return primitive('timestamp');
    noOverload(name, args);
    return DYN;
  };

  const type = check(expr, variables);
  return { type, types, errors: [...new Set(errors)], unknownFields };
}

/**
 * The type of a comprehension that builds a list, as the `map` and `filter` macros expand
 * (`accu` from `[]`, each step `accu + [e]`, under a condition for `filter` and the two-argument
 * `map`, the result `accu`): `list(E)` of `e`'s type, as cel-go's checker infers it; undefined
 * for any other shape, or when `e`'s type is `dyn`.
 */
function appendedList(
  comprehension: Record<string, unknown>,
  types: ReadonlyMap<ExprNode, CelType>,
): CelType | undefined {
  const accu = comprehension.accuVar as string;
  const init = comprehension.accuInit as ExprNode;
  if (init.exprKind.case !== 'listExpr') return undefined;
  if ((init.exprKind.value as { elements: unknown[] }).elements.length > 0) return undefined;
  if (!isIdent(comprehension.result as ExprNode, accu)) return undefined;
  let step = comprehension.loopStep as ExprNode;
  const call = (node: ExprNode) =>
    node.exprKind.case === 'callExpr'
      ? (node.exprKind.value as { function: string; target?: ExprNode; args: ExprNode[] })
      : undefined;
  const ternary = call(step);
  if (ternary?.function === '_?_:_' && ternary.target === undefined) {
    const [, yes, no] = ternary.args;
    if (yes === undefined || no === undefined || !isIdent(no, accu)) return undefined;
    step = yes;
  }
  const append = call(step);
  if (append?.function !== '_+_' || append.target !== undefined) return undefined;
  const [left, right] = append.args;
  if (left === undefined || right === undefined || !isIdent(left, accu)) return undefined;
  if (right.exprKind.case !== 'listExpr') return undefined;
  const elements = (right.exprKind.value as { elements: ExprNode[] }).elements;
  const [only] = elements;
  if (elements.length !== 1 || only === undefined) return undefined;
  const elem = types.get(only);
  return elem === undefined || elem.kind === 'dyn' ? undefined : { kind: 'list', elem };
}

function isIdent(node: ExprNode, name: string): boolean {
  return (
    node.exprKind.case === 'identExpr' && (node.exprKind.value as { name: string }).name === name
  );
}

function optionalOf(value: CelType): CelType {
  return { kind: 'optional', value };
}

/**
 * The value type of an optional list element or map entry, reporting what cel-go reports for
 * one that is certainly not an optional.
 */
function unwrapOptional(type: CelType, errors: string[]): CelType {
  if (type.kind === 'optional') return type.value;
  if (type.kind !== 'dyn') {
    errors.push(
      `expected type '${formatCelType(optionalOf(type))}' but found '${formatCelType(type)}'`,
    );
  }
  return type;
}

/**
 * The namespaces of the optional library's functions (`optional.of(x)`) and of kro's
 * (`hash.sha256(x)`: {@link KRO_LIBRARY_RESULTS}).
 */
const NAMESPACES = new Set(['optional', 'hash', 'base64', 'json', 'random', 'runtime']);

/** The namespace a call's target names (`optional` of `optional.of(x)`), unless it is a variable. */
function namespaceOf(target: ExprNode | undefined, scope: Scope): string | undefined {
  if (target?.exprKind.case !== 'identExpr') return undefined;
  const name = (target.exprKind.value as { name: string }).name;
  return NAMESPACES.has(name) && !scope.has(name) ? name : undefined;
}

/** A primitive other than `null` (which is assignable to more than itself: left alone). */
function isKnown(type: CelType): boolean {
  return isPrimitive(type) && type.kind !== 'null';
}

function isContainer(type: CelType): boolean {
  return type.kind === 'list' || type.kind === 'map' || type.kind === 'object';
}

function isOptional(type: CelType): boolean {
  return type.kind === 'optional';
}

/**
 * Whether two operands of an operator whose overloads take two values of one type (`_==_`,
 * `_<_`, `orValue`) certainly match none: both known, of different kinds, or an optional and a
 * primitive. `null` is left alone (it is assignable to more than itself), and so are two numbers
 * of different kinds (cross-type numeric comparisons depend on the API server's version).
 */
function mismatched(a: CelType, b: CelType): boolean {
  if (a.kind === 'null' || b.kind === 'null') return false;
  if (isOptional(a) !== isOptional(b)) return isPrimitive(isOptional(a) ? b : a);
  // A list, map or object type is never a primitive one.
  if (isContainer(a) || isContainer(b)) return isPrimitive(a) || isPrimitive(b);
  if (!isPrimitive(a) || !isPrimitive(b) || a.kind === b.kind) return false;
  return !(NUMERIC.has(a.kind) && NUMERIC.has(b.kind));
}

/**
 * The functions whose arguments' literals may mix types (cel-go's
 * `HomogeneousAggregateLiteralExemptFunctions`, as the strings extension and `cel.bind`'s block
 * configure it).
 */
const HOMOGENEITY_EXEMPT = new Set(['format', 'cel.@block']);

/**
 * What cel-go's homogeneous aggregate literal validator reports (the API server's environment
 * has it in every release): the first element, key or value of a literal whose type is not the
 * first one's, `expected type 'int' but found 'string'`. Only types known for certain are
 * compared (two primitives: a container's type here may hold `dyn` where cel-go's does not), so
 * `dyn` is never reported.
 */
function requireHomogeneous(types: readonly CelType[], errors: string[]): void {
  const [first] = types;
  if (first === undefined) return;
  for (const type of types) {
    if (isPrimitive(first) && isPrimitive(type) && first.kind !== type.kind) {
      errors.push(`expected type '${formatCelType(first)}' but found '${formatCelType(type)}'`);
      return;
    }
  }
}

/** The kind all of `types` share, when each is the same primitive; else undefined. */
function commonPrimitive(types: readonly CelType[]): CelType | undefined {
  const [first] = types;
  if (first === undefined || !isPrimitive(first)) return undefined;
  return types.every((type) => type.kind === first.kind) ? primitive(first.kind) : undefined;
}

function constantType(kind: string | undefined): CelType {
  switch (kind) {
    case 'boolValue':
      return primitive('bool');
    case 'int64Value':
      return primitive('int');
    case 'uint64Value':
      return primitive('uint');
    case 'doubleValue':
      return primitive('double');
    case 'stringValue':
      return primitive('string');
    case 'bytesValue':
      return primitive('bytes');
    case 'nullValue':
      return primitive('null');
    default:
      return DYN;
  }
}

/** The type of `operand.field`, reporting what cel-go's `checkSelectField` reports. */
function selectField(
  operand: CelType,
  field: string,
  errors: string[],
  unknownFields: UnknownField[],
): CelType {
  if (operand.kind === 'optional') {
    const inner = selectField(operand.value, field, errors, unknownFields);
    return { kind: 'optional', value: inner };
  }
  switch (operand.kind) {
    case 'map':
      return operand.value;
    case 'object': {
      const type = fieldType(operand, field);
      if (type === undefined) {
        errors.push(`undefined field '${field}'`);
        unknownFields.push({ field, known: [...operand.fields.keys()] });
      }
      return type ?? DYN;
    }
    case 'dyn':
    case 'type':
      return DYN;
    default:
      errors.push(`type '${formatCelType(operand)}' does not support field selection`);
      return DYN;
  }
}
