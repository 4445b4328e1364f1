/**
 * The expressions chainsaw evaluates in the files a test applies: a string value written as
 * `(<JMESPath>)` is replaced by what it evaluates to, with `$namespace` bound to the test's
 * namespace (`namespace: ($namespace)`, `name: (join('-', [$namespace, 'reader']))`). cosi
 * evaluates the two forms tests write to name things after their namespace; any other
 * expression is left as written.
 */

import type { AppliedBy } from './applied-by.js';
import type { ParsedDocument, ParsedManifest } from './parsed-manifest.js';

/** `manifest` with the test that applies its file, and the test's namespace in its expressions. */
export function withAppliedBy(
  manifest: ParsedManifest,
  appliedBy: AppliedBy | undefined,
): ParsedManifest {
  if (appliedBy === undefined) return manifest;
  const namespace = appliedBy.namespace;
  if (!appliedBy.templates || namespace === undefined) return { ...manifest, appliedBy };
  const documents = manifest.documents.map((document) => {
    const value = bindExpressions(document.value, namespace);
    return value === document.value ? document : withValue(document, value);
  });
  return { ...manifest, documents, appliedBy };
}

/** `value` with its expressions evaluated; the same object when it holds none. */
function bindExpressions(value: unknown, namespace: string): unknown {
  if (typeof value === 'string') return evaluate(value, namespace) ?? value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => bindExpressions(item, namespace));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  let changed: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const bound = bindExpressions(item, namespace);
    if (bound === item) continue;
    changed ??= { ...(value as Record<string, unknown>) };
    // Keys come from the parse as own data properties: `__proto__` is one, never the prototype.
    Object.defineProperty(changed, key, {
      value: bound,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return changed ?? value;
}

const JOIN = /^join\(\s*'([^']*)'\s*,\s*\[([^\]]*)\]\s*\)$/;

/**
 * What is inside the parentheses of `(expression)`, without the white space around it; read by
 * position, not by a regular expression (a lazy body between two `\s*` takes cubic time on a
 * long run of spaces after `(`, and every string value of an applied file is read).
 */
function expressionBody(text: string): string | undefined {
  if (text.length < 2 || !text.startsWith('(') || !text.endsWith(')')) return undefined;
  return text.slice(1, -1).trim();
}

/** What `text` evaluates to when it is `($namespace)` or a `join` of it and literals. */
function evaluate(text: string, namespace: string): string | undefined {
  const body = expressionBody(text);
  if (body === undefined) return undefined;
  if (body === '$namespace') return namespace;
  const join = JOIN.exec(body);
  if (join === null) return undefined;
  const parts: string[] = [];
  for (const item of (join[2] ?? '').split(',')) {
    const part = item.trim();
    if (part === '$namespace') parts.push(namespace);
    else if (/^'[^']*'$/.test(part)) parts.push(part.slice(1, -1));
    else return undefined;
  }
  return parts.join(join[1] ?? '');
}

/** `document` holding `value`, located as it is. */
function withValue(document: ParsedDocument, value: unknown): ParsedDocument {
  return {
    file: document.file,
    index: document.index,
    position: document.position,
    value,
    hasErrors: document.hasErrors,
    source: document.source,
    locate: (pointer, part) => document.locate(pointer, part),
    locateText: (pointer, text, occurrence) => document.locateText(pointer, text, occurrence),
  };
}
