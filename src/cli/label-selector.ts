import { CliError } from './exit-codes.js';

/** Labels as a resource carries them. */
type Labels = Readonly<Record<string, string>>;

/** One requirement of a selector; all of them must hold. */
type Requirement =
  | { readonly op: 'exists' | 'absent'; readonly key: string }
  | { readonly op: 'in' | 'notin'; readonly key: string; readonly values: readonly string[] };

/** A parsed `-l` selector: whether a resource's labels match it. */
export type LabelSelector = (labels: Labels) => boolean;

const KEY = /^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/;

/**
 * Parses a kubectl label selector: comma-separated requirements, all of which must hold:
 * `key=value` (or `==`), `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key`, `!key`.
 * As in Kubernetes, `!=` and `notin` also match resources that do not have the label.
 *
 * @throws CliError (usage) naming the selector and what is wrong with it.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements = splitRequirements(text).map((part) => parseRequirement(part, text));
  return (labels) => requirements.every((r) => matches(r, labels));
}

/** Splits on the commas that are not inside `( )`. */
function splitRequirements(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

function parseRequirement(part: string, selector: string): Requirement {
  const fail = (why: string): never => {
    throw new CliError(`-l: invalid selector ${JSON.stringify(selector)}: ${why}`);
  };
  if (part === '') fail('an empty requirement');
  const set = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(part);
  if (set) {
    const [, key = '', op, list = ''] = set;
    const values = list.split(',').map((v) => v.trim());
    if (values.some((v) => v === '')) fail(`an empty value in ${JSON.stringify(part)}`);
    return { op: op === 'in' ? 'in' : 'notin', key: checkKey(key, fail), values };
  }
  const bare = /^(\S+)\s+(in|notin)\s+([^()]+)$/.exec(part);
  if (bare) {
    const [, key = '', op = '', list = ''] = bare;
    fail(`a set is written in parentheses: ${key} ${op} (${list.trim()})`);
  }
  const compare = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part);
  if (compare) {
    const [, key = '', op, value = ''] = compare;
    return { op: op === '!=' ? 'notin' : 'in', key: checkKey(key, fail), values: [value] };
  }
  if (part.startsWith('!')) return { op: 'absent', key: checkKey(part.slice(1).trim(), fail) };
  return { op: 'exists', key: checkKey(part, fail) };
}

function checkKey(key: string, fail: (why: string) => never): string {
  if (!KEY.test(key)) fail(`${JSON.stringify(key)} is not a label key`);
  return key;
}

function matches(r: Requirement, labels: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  switch (r.op) {
    case 'exists':
      return has;
    case 'absent':
      return !has;
    case 'in':
      return has && r.values.includes(labels[r.key] as string);
    case 'notin':
      return !has || !r.values.includes(labels[r.key] as string);
  }
}
