/**
 * One document's syntax tree turned into plain data, with a finding for what cannot be data or
 * what kubectl reads otherwise than YAML 1.2.
 */

import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Alias,
  type Node as YamlNode,
  type Scalar,
} from 'yaml';
import { createFinding, type Finding, type FindingCode } from '../finding.js';
import { jsonPointer } from '../json-pointer.js';
import type { LineIndex } from '../line-index.js';
import { shorten } from '../shorten.js';
import { nodeStart } from '../yaml-node-starts.js';
import { decodeWithQuoteEscapes, hasEscapeIn } from '../go-yaml-escapes.js';
import { goYamlNumber } from '../go-yaml-numbers.js';
import { defineOwn } from '../../engine/resource/plain-data.js';
import { goYamlBinary, isGoYamlTimestamp } from '../go-yaml-tags.js';
import { GO_YAML_BOOLEANS, kubectlKey, YAML11_OCTAL, type KubectlKey } from '../go-yaml-keys.js';
import { INTEGER_SYNTAX, scalarTagResolved, TAG_PREFIX } from './yaml-core-tags.js';
import {
  ALIASED_CHARACTERS_ALWAYS_ALLOWED,
  ALIASED_CHARACTERS_PER_CHARACTER,
  ALIASED_NODES_ALWAYS_ALLOWED,
  allowedAliasShare,
  NODES_BEFORE_ALIASING_IS_BOUNDED,
  type Limits,
} from './yaml-build-limits.js';
import { isEmptyScalar, isTemplateExpression } from './yaml-node-kinds.js';

/** YAML 1.1 booleans; YAML 1.2 (and so cosi) reads them as strings when they are not true/false. */
const YAML11_BOOLEANS = new Set(['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false']);

/** How YAML 1.2's core schema writes infinity: other infinite numbers overflowed. */
const INFINITY_SYNTAX = /^[-+]?\.(?:inf|Inf|INF)$/;
/**
 * The keywords of a CRD's `openAPIV3Schema` that hold a limit, not data: the API server reads
 * them as Go's float64 or int64, and generated CRDs write int64's bounds
 * (`maximum: 9223372036854775807`), which lose a few units as a JavaScript number, as they do
 * as a float64. Their precision is not worth a finding.
 */
const SCHEMA_LIMITS = new Set([
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
]);

/**
 * Whether the double-quoted scalar `text[start, end)` has the escape `\/` (YAML 1.2's, not
 * go-yaml's): a backslash after an even run of them, then a slash. Only the scalar's own text is
 * read: a search for the next backslash would run on to the end of the file when there is none
 * after it, for each of a JSON-like file's thousands of quoted strings.
 */
function hasSlashEscape(text: string, start: number, end: number): boolean {
  for (let at = start; at < end - 1; at++) {
    if (text.charCodeAt(at) !== BACKSLASH) continue;
    if (text.charCodeAt(at + 1) === SLASH) return true;
    // The escaped character is skipped: `\\/` is a backslash, then a slash.
    at++;
  }
  return false;
}

const BACKSLASH = 0x5c;
const SLASH = 0x2f;

/** An anchor's name as go-yaml (after libyaml) scans one: YAML 1.2 allows more (`&a.b`). */
const GO_YAML_ANCHOR = /^[0-9A-Za-z_-]+$/;

/** Thrown inside {@link DataBuilder} to give up on a document (after reporting why). */
export class AbortBuild extends Error {}

/**
 * Turns one document's syntax tree into plain data in a single pass, reporting what cannot be
 * data. Anchors are tracked as the walk meets them, because yaml's own `Alias.resolve` searches
 * the whole document on every call.
 */
export class DataBuilder {
  readonly #anchors = new Map<string, YamlNode>();
  /** Anchored nodes being built: an alias to one of them would expand forever. */
  readonly #building = new Set<YamlNode>();
  readonly #path: (string | number)[] = [];
  /** Go template expressions met (`{{ .fluxns }}`, which YAML reads as a nested flow mapping). */
  readonly templates: YamlNode[] = [];
  #expansions = 0;
  /** The nodes built, and those of them built inside an alias's expansion (go-yaml's counts). */
  /** The document node counts, as go-yaml counts it. */
  #built = 1;
  #builtInAliases = 0;
  /** Inside an alias expansion, anchors are not defined again (they were, where they stand). */
  #aliasDepth = 0;
  /** The alias written in the document whose expansion is under way. */
  #outerAlias: { node: Alias; pathLength: number } | undefined;

  constructor(
    readonly file: string,
    readonly lineCounter: LineIndex,
    readonly limits: Limits,
    readonly findings: Finding[],
    /**
     * The document is a Kubernetes object: its untagged plain scalars that YAML 1.1 reads
     * otherwise than YAML 1.2 (`0755`, `yes`, `off`) are read as kubectl reads them (go-yaml
     * v2: the octal 493, true, false), so that a check says what the API server would, and
     * still warned about (a failure under `--strict`). cosi's own documents are YAML 1.2.
     */
    readonly kubectlScalars = false,
    /** go-yaml's `\'` escapes accepted in the document's text, by their offsets (ascending). */
    readonly quoteEscapes: { readonly text: string; readonly sorted: readonly number[] } = {
      text: '',
      sorted: [],
    },
    /**
     * kubectl reads the document with go-yaml, not as JSON (see {@link readAsJsonByKubectl}):
     * what go-yaml's scanner refuses and JSON takes (`"\/"`) is then refused.
     */
    readonly goYamlScanner = true,
  ) {}

  build(node: YamlNode | null, depth: number): unknown {
    if (node === null) return null;
    this.#count(node);
    if (depth > this.limits.maxDepth) {
      this.#report(
        'nesting-too-deep',
        node,
        `nested more than ${this.limits.maxDepth} levels`,
        true,
      );
      throw new AbortBuild();
    }
    if (isAlias(node)) return this.#expand(node, depth);
    const anchored = node.anchor !== undefined;
    if (anchored) {
      if (this.kubectlScalars && !GO_YAML_ANCHOR.test(node.anchor as string)) {
        this.#report(
          'yaml-syntax',
          node,
          `the anchor &${shorten(node.anchor as string)}: kubectl's YAML reader (go-yaml) takes anchor names of letters, digits, _ and - only, and refuses the file (did not find expected alphabetic or numeric character); rename it`,
        );
      }
      if (this.#aliasDepth === 0) this.#anchors.set(node.anchor as string, node);
      this.#building.add(node);
    }
    const flow = (isMap(node) || isSeq(node)) && node.flow === true;
    if (flow) this.#flowDepth++;
    try {
      if (isScalar(node)) return this.#scalar(node);
      if (isTemplateExpression(node)) {
        // `{{ .Values.port }}`: a template's, not data (said once for the document).
        if (this.#aliasDepth === 0) this.templates.push(node);
        return null;
      }
      if (isMap(node)) {
        this.#checkCollectionTag(node, 'map');
        const out: Record<string, unknown> = {};
        /** The values of merge keys (`<<: *defaults`), merged once the keys written are in. */
        const merges: { readonly key: YamlNode; readonly value: YamlNode | null }[] = [];
        for (const pair of node.items) {
          if (isScalar(pair.key) && pair.key.type === 'PLAIN' && pair.key.value === '<<') {
            merges.push({ key: pair.key, value: pair.value as YamlNode | null });
            continue;
          }
          if (pair.key !== null) this.#count(pair.key as YamlNode);
          const key = this.#key(pair.key as YamlNode | null, node);
          if (key === undefined) continue;
          if (Object.prototype.hasOwnProperty.call(out, key)) {
            this.#path.push(key);
            this.#report(
              'duplicate-key',
              pair.key as YamlNode,
              `duplicate key ${JSON.stringify(shorten(key))}`,
            );
            this.#path.pop();
            continue;
          }
          this.#path.push(key);
          // An own property even for `__proto__`, never the object's prototype.
          defineOwn(out, key, this.build(pair.value as YamlNode | null, depth + 1));
          this.#path.pop();
        }
        for (const merge of merges) this.#merge(merge.key, merge.value, out, depth);
        return out;
      }
      if (isSeq(node)) {
        this.#checkCollectionTag(node, 'seq');
        const out: unknown[] = [];
        for (let i = 0; i < node.items.length; i++) {
          this.#path.push(i);
          const item: unknown = node.items[i];
          const text = this.kubectlScalars ? this.#colonEndedScalar(item) : undefined;
          out.push(text ?? this.build(item as YamlNode | null, depth + 1));
          this.#path.pop();
        }
        return out;
      }
      return null;
    } finally {
      if (flow) this.#flowDepth--;
      if (anchored) this.#building.delete(node);
    }
  }

  /** How many flow collections (`[...]`, `{...}`) the node being built is in. */
  #flowDepth = 0;

  /**
   * Reports, in a Kubernetes object, a scalar YAML 1.2 reads and kubectl's go-yaml refuses: a
   * plain one inside `[...]` or `{...}` that holds `?` (go-yaml ends it there and takes `?` for
   * a key: `[--url=/x?y]` is "did not find expected ',' or ']'") or starts with `:` (a value
   * indicator there: `[--addr, :8080]`), or a double-quoted one with the
   * escape `\/`, which go-yaml does not have ("found unknown escape character").
   */
  #checkGoYamlScalar(node: Scalar): void {
    if (!this.kubectlScalars || !this.goYamlScanner) return;
    const source = String(node.source);
    if (node.type === 'PLAIN' && this.#flowDepth > 0 && source.startsWith(':')) {
      this.#report(
        'yaml-syntax',
        node,
        `${JSON.stringify(shorten(source))}: inside [ ] or { }, kubectl's YAML reader (go-yaml) takes a : that starts a plain value for a key's, and refuses the file (did not find expected node content); quote it`,
      );
    } else if (node.type === 'PLAIN' && this.#flowDepth > 0 && source.includes('?')) {
      this.#report(
        'yaml-syntax',
        node,
        `${JSON.stringify(shorten(source))}: inside [ ] or { }, kubectl's YAML reader (go-yaml) ends a plain value at ? and takes it for a key, and refuses the file (did not find expected ',' or ']'); quote it`,
      );
    } else if (
      node.type === 'QUOTE_DOUBLE' &&
      node.range &&
      hasSlashEscape(this.quoteEscapes.text, node.range[0], node.range[1])
    ) {
      this.#report(
        'yaml-syntax',
        node,
        "the escape \\/ in a double-quoted string: kubectl's YAML reader (go-yaml) does not have it, and refuses the file (found unknown escape character); write / alone",
      );
    }
  }

  /**
   * A merge key's value merged into `out` as kubectl (go-yaml) and YAML 1.1's merge type do: a
   * mapping, or a list of them (an earlier one first), adds the keys `out` does not have; the
   * keys written beside the merge key win. Anything else there is a `merge-key` finding.
   */
  #merge(key: YamlNode, value: YamlNode | null, out: Record<string, unknown>, depth: number): void {
    this.#path.push('<<');
    try {
      const sources = isSeq(value) ? (value.items as (YamlNode | null)[]) : [value];
      for (const source of sources) {
        const built = this.build(source, depth + 1);
        if (typeof built !== 'object' || built === null || Array.isArray(built)) {
          this.#report(
            'merge-key',
            source ?? key,
            'a merge key (<<) takes a mapping, an alias of one or a list of them; quote "<<" for a key of that name',
          );
          continue;
        }
        for (const [k, v] of Object.entries(built)) {
          if (!Object.prototype.hasOwnProperty.call(out, k)) defineOwn(out, k, v);
        }
      }
    } finally {
      this.#path.pop();
    }
  }

  /** One more node built (a mapping's key too, as go-yaml decodes it), and the bound checked. */
  #count(node: YamlNode): void {
    this.#built++;
    if (this.#aliasDepth === 0) return;
    if (isScalar(node) && typeof node.value === 'string') this.#countAliasedScalar(node.value);
    if (++this.#builtInAliases > ALIASED_NODES_ALWAYS_ALLOWED) this.#checkAliasing(node);
  }

  /**
   * A string an expansion made, against the file's bound on the characters expansions make
   * ({@link allowedAliasedCharacters}). Refused at the alias written in the document, before
   * the value is built any further.
   */
  #countAliasedScalar(value: string): void {
    const budget = this.limits.aliasedCharacters;
    budget.left -= value.length;
    if (budget.left >= 0) return;
    if (this.#outerAlias === undefined) return;
    // Inside an expansion, `#report` places it at the alias written in the document.
    this.#report(
      'alias-bomb',
      this.#outerAlias.node,
      `expanding aliases makes more than ${budget.allowed} characters of strings in this file (${ALIASED_CHARACTERS_PER_CHARACTER} times its length, at least ${ALIASED_CHARACTERS_ALWAYS_ALLOWED}): an alias bomb? (cosi's own bound: kubectl counts nodes only)`,
      true,
    );
    throw new AbortBuild();
  }

  /**
   * go-yaml's bound on aliasing (kubectl's): past 100 nodes from expansions and 1,000 in all,
   * the share of nodes that expansions made may not pass {@link allowedAliasShare}. A document
   * it refuses is an `alias-bomb`; what it takes (a manifest reusing an anchor hundreds of
   * times) is read.
   */
  #checkAliasing(node: YamlNode): void {
    if (this.#built <= NODES_BEFORE_ALIASING_IS_BOUNDED) return;
    if (this.#builtInAliases / this.#built <= allowedAliasShare(this.#built)) return;
    this.#report(
      'alias-bomb',
      node,
      `expanding aliases makes ${this.#builtInAliases} of the ${this.#built} nodes read so far: more than kubectl (go-yaml) allows, which refuses it as "excessive aliasing" (an alias bomb?)`,
      true,
    );
    throw new AbortBuild();
  }

  #expand(alias: Alias, depth: number): unknown {
    const target = this.#anchors.get(alias.source);
    if (target === undefined) {
      this.#report(
        'unknown-anchor',
        alias,
        `the alias *${shorten(alias.source)} has no anchor before it`,
      );
      return null;
    }
    if (this.#building.has(target)) {
      this.#report(
        'recursive-alias',
        alias,
        `the alias *${shorten(alias.source)} refers to a node that contains it`,
        true,
      );
      throw new AbortBuild();
    }
    if (++this.#expansions > this.limits.maxAliasCount) {
      this.#report(
        'alias-bomb',
        alias,
        `expanding aliases exceeds the limit of ${this.limits.maxAliasCount} (an alias bomb?)`,
        true,
      );
      throw new AbortBuild();
    }
    if (this.#aliasDepth === 0) this.#outerAlias = { node: alias, pathLength: this.#path.length };
    this.#aliasDepth++;
    try {
      return this.build(target, depth);
    } finally {
      this.#aliasDepth--;
    }
  }

  #scalar(node: Scalar): unknown {
    this.#checkGoYamlScalar(node);
    let value = node.value;
    if (node.type === 'QUOTE_DOUBLE' && this.quoteEscapes.sorted.length > 0 && node.range) {
      const [start, end] = node.range;
      if (hasEscapeIn(this.quoteEscapes.sorted, start, end)) {
        value = decodeWithQuoteEscapes(
          this.quoteEscapes.text,
          start,
          end,
          this.quoteEscapes.sorted,
        );
      }
    }
    const tag = node.tag;
    // `!!float 5`: yaml's core schema leaves an integer literal under a float tag a string.
    if (tag === `${TAG_PREFIX}float` && typeof value === 'string' && INTEGER_SYNTAX.test(value)) {
      value = Number(value);
    }
    if (typeof value === 'number') this.#checkNumber(node, value);
    const source = String(node.source);
    if (
      typeof value === 'number' &&
      node.type === 'PLAIN' &&
      tag === undefined &&
      YAML11_OCTAL.test(source)
    ) {
      const digits = source.replace(/^[-+]?0+/, '') || '0';
      if (this.kubectlScalars) {
        const octal = (source.startsWith('-') ? -1 : 1) * parseInt(digits, 8);
        this.#report(
          'yaml11-octal',
          node,
          `${shorten(source)} is the octal ${octal} as kubectl reads it (YAML 1.1), but the decimal ${shorten(String(value))} in YAML 1.2: write 0o${shorten(digits)} (or ${octal}) to mean the same in both`,
        );
        value = octal;
      } else {
        this.#report(
          'yaml11-octal',
          node,
          `${shorten(source)} is the decimal ${shorten(String(value))} in YAML 1.2 but an octal in YAML 1.1: write 0o${shorten(digits)} for an octal, or quote it for a string`,
        );
      }
    }
    if (typeof value === 'string' && node.type === 'PLAIN' && tag === undefined) {
      const number = goYamlNumber(value);
      if (number !== undefined) {
        const shown = shorten(value);
        if (this.kubectlScalars) {
          this.#report(
            'yaml11-number',
            node,
            `${shown} is the number ${shorten(String(number))} as kubectl reads it (YAML 1.1), but the string ${JSON.stringify(shown)} in YAML 1.2: write ${shorten(String(number))}, or quote it for the string`,
          );
          return number;
        }
        this.#report(
          'yaml11-number',
          node,
          `${shown} is the string ${JSON.stringify(shown)} in YAML 1.2 but the number ${shorten(String(number))} in YAML 1.1: quote it, or write ${shorten(String(number))}`,
        );
      }
    }
    if (
      this.kubectlScalars &&
      typeof value === 'string' &&
      (tag === `${TAG_PREFIX}binary` || tag === `${TAG_PREFIX}timestamp`)
    ) {
      return this.#goYamlTagged(node, tag, value);
    }
    if (tag !== undefined && !scalarTagResolved(tag, value)) {
      this.#report(
        'unknown-tag',
        node,
        `the tag ${shorten(tag)} is not a YAML 1.2 core tag for this value`,
      );
    }
    if (
      typeof value === 'string' &&
      value.length <= 5 &&
      node.type === 'PLAIN' &&
      tag === undefined &&
      YAML11_BOOLEANS.has(value.toLowerCase())
    ) {
      const boolean = this.kubectlScalars ? GO_YAML_BOOLEANS.get(value) : undefined;
      if (boolean === undefined) {
        this.#report(
          'yaml11-boolean',
          node,
          `${value} is the string ${JSON.stringify(value)} in YAML 1.2 but a boolean in YAML 1.1: quote it, or write true or false`,
        );
      } else {
        this.#report(
          'yaml11-boolean',
          node,
          `${value} is the boolean ${boolean} as kubectl reads it (YAML 1.1), but the string ${JSON.stringify(value)} in YAML 1.2: write ${boolean}, or quote it for the string`,
        );
        return boolean;
      }
    }
    return value;
  }

  /**
   * A `!!binary` or `!!timestamp` scalar in a Kubernetes object, as kubectl's go-yaml reads it: the
   * string of the bytes base64 gives, the timestamp as written; one go-yaml refuses is reported
   * (kubectl refuses the file) and read as the text written.
   */
  #goYamlTagged(node: Scalar, tag: string, value: string): string {
    const shown = JSON.stringify(shorten(value));
    if (tag === `${TAG_PREFIX}binary`) {
      const decoded = goYamlBinary(value);
      if (decoded !== undefined) return decoded;
      this.#report(
        'yaml-syntax',
        node,
        `!!binary ${shown} is no base64: kubectl's YAML reader (go-yaml) refuses the file (!!binary value contains invalid base64 data)`,
      );
    } else if (!isGoYamlTimestamp(value)) {
      this.#report(
        'yaml-syntax',
        node,
        `!!timestamp ${shown} is no timestamp kubectl's YAML reader (go-yaml) reads (2001-12-14, 2001-12-14T21:59:43.1Z, 2001-12-14 21:59:43): it refuses the file (cannot decode it as a !!timestamp)`,
      );
    }
    return value;
  }

  /** Refuses numbers that JavaScript cannot hold as written: the data would change. */
  #checkNumber(node: Scalar, value: number): void {
    const source = String(node.source);
    if (!Number.isFinite(value) && !Number.isNaN(value) && !INFINITY_SYNTAX.test(source)) {
      this.#report(
        'number-out-of-range',
        node,
        `${shorten(source)} is too large for a number (it would become infinity): quote it for a string`,
      );
    } else if (
      Number.isInteger(value) &&
      !Number.isSafeInteger(value) &&
      INTEGER_SYNTAX.test(source) &&
      !this.#atSchemaLimit()
    ) {
      this.#report(
        'number-out-of-range',
        node,
        `the integer ${shorten(source)} is beyond 2^53 and would lose precision: quote it for a string`,
      );
    }
  }

  /** True at a limit keyword ({@link SCHEMA_LIMITS}) inside a CRD's `openAPIV3Schema`. */
  #atSchemaLimit(): boolean {
    const key = this.#path.at(-1);
    return (
      typeof key === 'string' && SCHEMA_LIMITS.has(key) && this.#path.includes('openAPIV3Schema')
    );
  }

  #checkCollectionTag(node: YamlNode, kind: 'map' | 'seq'): void {
    if (node.tag !== undefined && node.tag !== TAG_PREFIX + kind && node.tag !== '!') {
      this.#report('unknown-tag', node, `the tag ${shorten(node.tag)} is not a YAML 1.2 core tag`);
    }
  }

  /**
   * A mapping key as JavaScript sees it, or `undefined` (reported) when it cannot be one; in a
   * Kubernetes object, as kubectl sends it (`go-yaml-keys.ts`), with a warning where YAML 1.2
   * reads it otherwise.
   */
  #key(node: YamlNode | null, at: YamlNode): string | undefined {
    if (node === null || (isScalar(node) && node.value === null && node.source === '')) {
      if (!this.kubectlScalars) return '';
      this.#report(
        'complex-key',
        node ?? at,
        'a mapping key is missing: kubectl refuses the document (go-yaml: unsupported map key of type: <nil>)',
      );
      return undefined;
    }
    if (node.anchor !== undefined && this.#aliasDepth === 0) this.#anchors.set(node.anchor, node);
    const scalar = isAlias(node) ? this.#anchors.get(node.source) : node;
    if (scalar !== undefined && isScalar(scalar)) {
      const value = scalar.value;
      if (scalar === node) this.#checkGoYamlScalar(node);
      if (scalar === node && node.tag !== undefined && !scalarTagResolved(node.tag, value)) {
        this.#report(
          'unknown-tag',
          node,
          `the tag ${node.tag} is not a YAML 1.2 core tag for this key`,
        );
      }
      if (this.kubectlScalars && scalar.type === 'PLAIN' && scalar.tag === undefined) {
        const kubectl = kubectlKey(String(scalar.source), value);
        if (kubectl !== undefined) return this.#kubectlKey(node, String(scalar.source), kubectl);
      }
      if (typeof value === 'string') return value;
      if (value === null) return '';
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    }
    this.#report('complex-key', node, 'a mapping key must be a string, number, boolean or null');
    return undefined;
  }

  /** Reports a plain key kubectl reads otherwise than YAML 1.2, and returns kubectl's key. */
  #kubectlKey(node: YamlNode, source: string, kubectl: KubectlKey): string | undefined {
    const written = shorten(source);
    if (kubectl.kind === 'null') {
      this.#report(
        'complex-key',
        node,
        `the key ${written} is null as kubectl reads it, which it refuses (go-yaml: unsupported map key of type: <nil>): quote it for the key ${JSON.stringify(written)}`,
      );
      return undefined;
    }
    const sent = JSON.stringify(kubectl.key);
    const message =
      kubectl.kind === 'string'
        ? `the key ${written} is too large for a number: kubectl keeps the string ${sent} (YAML 1.1), where YAML 1.2 reads infinity: quote it`
        : `the key ${written} is the ${kubectl.kind} ${kubectl.key} as kubectl reads it (YAML 1.1), so the API server gets the key ${sent}: quote it for the key ${JSON.stringify(written)}`;
    this.#path.push(kubectl.key);
    this.#report(
      kubectl.kind === 'boolean'
        ? 'yaml11-boolean'
        : kubectl.kind === 'octal'
          ? 'yaml11-octal'
          : 'yaml11-number',
      node,
      message,
    );
    this.#path.pop();
    return kubectl.key;
  }

  /**
   * A flow sequence's plain item that ends in `:` right before a `,` or `]` (`[2001:db8::]`, an
   * IPv6 address): YAML 1.2 reads a key with no value (`{"2001:db8:": null}`), kubectl (go-yaml
   * v2, where a `:` ends a plain scalar only before a space) the string `2001:db8::`. In a
   * Kubernetes object it is read as kubectl reads it, and said (`yaml-warning`).
   */
  #colonEndedScalar(item: unknown): string | undefined {
    // yaml holds the implicit pair as a one-pair flow mapping without braces.
    if (!isMap(item) || !item.flow || item.items.length !== 1) return undefined;
    const pair = item.items[0];
    if (pair === undefined || !isScalar(pair.key) || !isEmptyScalar(pair.value as YamlNode)) {
      return undefined;
    }
    const key = pair.key;
    if (key.type !== 'PLAIN' || key.range === undefined || key.range === null) return undefined;
    const source = this.quoteEscapes.text;
    if (source[key.range[0] - 1] === '{' || source[item.range?.[0] ?? 0] === '{') return undefined;
    const colon = key.range[1];
    if (source[colon] !== ':' || !',]'.includes(source[colon + 1] ?? '-')) return undefined;
    this.#count(item);
    const text = `${source.slice(key.range[0], colon)}:`;
    this.#report(
      'yaml-warning',
      key as YamlNode,
      `${JSON.stringify(shorten(text))} ends in ":" inside a flow list: kubectl (go-yaml) reads the string ${JSON.stringify(shorten(text))}, YAML 1.2 a key with no value; quote it`,
    );
    return text;
  }

  /**
   * Reports a problem at the current path. Inside an alias expansion, problems of the expanded
   * nodes themselves were already reported where the anchor stands, so only the expansion's own
   * problems (`always`) are, and at the alias written in the document, where a reader can act.
   */
  #report(code: FindingCode, node: YamlNode, message: string, always = false): void {
    let at = node;
    let path = this.#path;
    if (this.#aliasDepth > 0) {
      if (!always || this.#outerAlias === undefined) return;
      at = this.#outerAlias.node;
      path = path.slice(0, this.#outerAlias.pathLength);
    }
    const { line, col } = this.lineCounter.linePos(nodeStart(at));
    this.findings.push(
      createFinding({ code, message, file: this.file, line, col, pointer: jsonPointer(path) }),
    );
  }
}
