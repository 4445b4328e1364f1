/**
 * The entries of a map or message literal (`{k: v}`, `Msg{f: v}`) as `@bufbuild/cel` parses
 * them: an entry's key is a `keyKind` union (`mapKey`, an expression; `fieldKey`, a field name),
 * not the `mapKey` property of cel-go's Go structs. Every walk over an expression reads entries
 * through here, so that no visitor skips a map literal's keys.
 */

import type { ExprNode } from './optional-syntax.js';

/** One entry of a literal: its key expression (a map literal's; none for a field), its value. */
export interface LiteralEntry {
  readonly key: ExprNode | undefined;
  readonly value: ExprNode;
  /** `{?k: v}`: the entry is present only when the optional `v` has a value. */
  readonly optional: boolean;
}

interface ParsedEntry {
  readonly keyKind?: { readonly case?: string; readonly value?: unknown };
  readonly value: ExprNode;
  readonly optionalEntry?: boolean;
}

/** The entries of a `structExpr` node's value (`node.exprKind.value`). */
export function literalEntries(struct: Record<string, unknown>): LiteralEntry[] {
  const entries = (struct.entries ?? []) as readonly ParsedEntry[];
  return entries.map((entry) => ({
    key: entry.keyKind?.case === 'mapKey' ? (entry.keyKind.value as ExprNode) : undefined,
    value: entry.value,
    optional: entry.optionalEntry === true,
  }));
}
