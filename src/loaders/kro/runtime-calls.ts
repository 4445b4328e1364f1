/**
 * The calls of kro's `runtime` library in a parsed expression (`runtime-library.ts`): each
 * `runtime.newCondition({type: ..., ...})` has its bare-name keys rewritten into strings, as
 * kro's parse-time macro does (`newConditionMacro`), or is refused; and what the RGD's load
 * checks of them (kro's `pkg/graph/conditions.go`) is collected: each condition's literal `type`
 * and `status`, and each `runtime.condition(schema, 'X')` lookup's literal type.
 */

import { CONDITION_KEYS } from './condition-types.js';

interface Node {
  id?: bigint;
  exprKind: { case: string | undefined; value: unknown };
}

/** What an expression does with the `runtime` library. */
export interface RuntimeCalls {
  /** It calls `runtime.*` (kro binds `runtime` only in status conditions). */
  readonly uses: boolean;
  /** Each `runtime.newCondition` call's literal `type` and `status` (absent: computed). */
  readonly conditions: readonly { readonly type?: string; readonly status?: string }[];
  /** Each `runtime.condition(schema, 'X')` call's literal `X` (absent: computed). */
  readonly schemaLookups: readonly { readonly type?: string }[];
}

/**
 * Rewrites, in place, the keys of each `runtime.newCondition` map literal under `root`, and says
 * what the expression calls; or the first call kro's macro refuses, as `1:COL: message` (the
 * column of the offending key or map in `positions`, one-based).
 */
export function rewriteRuntimeCalls(
  root: object,
  positions: Readonly<Record<string, number>>,
): RuntimeCalls | { error: string } {
  const conditions: { type?: string; status?: string }[] = [];
  const schemaLookups: { type?: string }[] = [];
  let uses = false;
  const at = (node: Node, message: string): { error: string } => {
    const offset = node.id === undefined ? undefined : positions[String(node.id)];
    return { error: `${offset === undefined ? '' : `1:${offset + 1}: `}${message}` };
  };
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    // Any object of the tree (an entry, a constant): only an expression has `exprKind`.
    const node = item as Partial<Node>;
    if (node.exprKind?.case === 'callExpr') {
      const call = node.exprKind.value as { function: string; target?: Node; args: Node[] };
      if (identName(call.target) === 'runtime') {
        uses = true;
        if (call.function === 'newCondition' && call.args.length === 1) {
          const [arg] = call.args as [Node];
          const rewritten = rewriteKeys(arg, at);
          if ('error' in rewritten) return rewritten;
          conditions.push(rewritten);
        } else if (call.function === 'condition' && call.args.length === 2) {
          const [obj, type] = call.args as [Node, Node];
          if (identName(obj) === 'schema') schemaLookups.push(literal(type));
        }
      }
    }
    for (const value of Object.values(item)) {
      if (typeof value === 'object' && value !== null) stack.push(value);
    }
  }
  return { uses, conditions, schemaLookups };
}

function rewriteKeys(
  arg: Node,
  at: (node: Node, message: string) => { error: string },
): { type?: string; status?: string } | { error: string } {
  if (arg.exprKind.case !== 'structExpr') {
    return at(arg, 'runtime.newCondition: argument must be a map literal');
  }
  const struct = arg.exprKind.value as {
    entries: { keyKind?: { case?: string; value?: unknown }; value: Node }[];
    messageName?: string;
  };
  if (struct.messageName !== undefined && struct.messageName !== '') {
    return at(arg, 'runtime.newCondition: argument must be a map literal');
  }
  const seen = new Map<string, Node>();
  for (const entry of struct.entries) {
    const key = entry.keyKind?.case === 'mapKey' ? (entry.keyKind.value as Node) : undefined;
    const name = identName(key);
    if (key === undefined || name === undefined) {
      return at(
        key ?? arg,
        'runtime.newCondition: keys must be bare identifiers (type, status, reason, message); quoted or computed keys are not allowed',
      );
    }
    if (!(CONDITION_KEYS as readonly string[]).includes(name)) {
      return at(
        key,
        `runtime.newCondition: unknown key ${JSON.stringify(name)} (allowed: type, status, reason, message)`,
      );
    }
    if (seen.has(name)) {
      return at(key, `runtime.newCondition: duplicate key ${JSON.stringify(name)}`);
    }
    seen.set(name, entry.value);
    key.exprKind = {
      case: 'constExpr',
      value: {
        $typeName: 'cel.expr.Constant',
        constantKind: { case: 'stringValue', value: name },
      },
    };
  }
  for (const required of ['type', 'status']) {
    if (!seen.has(required)) return at(arg, `runtime.newCondition: '${required}' is required`);
  }
  const type = literal(seen.get('type'));
  const status = literal(seen.get('status'));
  return { ...type, ...(status.type === undefined ? {} : { status: status.type }) };
}

function identName(node: Node | undefined): string | undefined {
  return node?.exprKind.case === 'identExpr'
    ? (node.exprKind.value as { name: string }).name
    : undefined;
}

/** A string literal's value, as `{ type }` (absent: not a string literal). */
function literal(node: Node | undefined): { type?: string } {
  if (node?.exprKind.case !== 'constExpr') return {};
  const constant = (node.exprKind.value as { constantKind: { case?: string; value?: unknown } })
    .constantKind;
  return constant.case === 'stringValue' && typeof constant.value === 'string'
    ? { type: constant.value }
    : {};
}
