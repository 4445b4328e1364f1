/**
 * A CRD's names as the API server checks them: each a DNS-1035 label, none claimed by another
 * CRD of its group; and the name a CRD defining a kind would have.
 */

import pluralize from 'pluralize';
import type { DocumentReport } from '../document-report.js';
import type { CrdNames, CrdSpec } from './crd-shape.js';

/**
 * The names CRDs claim in each group, as the API server's naming controller keeps them: a
 * resource name (plural, singular, short name) or a kind (kind, list kind) that another CRD of
 * the group has is a conflict, and the later CRD is not served (`KindConflict`,
 * `ListKindConflict`, `SingularConflict`, `ShortNamesConflict`). Two documents of one CRD (one
 * name) are left to the duplicate-definition check.
 */
export class CrdNameClaims {
  /** `group/resource:NAME` or `group/kind:NAME` -> the CRD that claimed it. */
  readonly #claims = new Map<string, string>();

  /**
   * Claims the names of a CRD whose versions were read (`readCrd` checked its shape); false,
   * with a finding at the first conflicting name, when another CRD has one of them.
   */
  claim(value: Record<string, unknown>, report: DocumentReport): boolean {
    const spec = value.spec as CrdSpec;
    const { names, group } = spec;
    const crd = `${names.plural}.${group}`;
    const wanted: [string, string, string, string][] = [
      ['resource', names.plural, 'PluralConflict', '/spec/names/plural'],
      ...(names.singular
        ? [
            ['resource', names.singular, 'SingularConflict', '/spec/names/singular'] as [
              string,
              string,
              string,
              string,
            ],
          ]
        : []),
      ...(names.shortNames ?? []).map(
        (short, i) =>
          ['resource', short, 'ShortNamesConflict', `/spec/names/shortNames/${i}`] as [
            string,
            string,
            string,
            string,
          ],
      ),
      ['kind', names.kind, 'KindConflict', '/spec/names/kind'],
      [
        'kind',
        names.listKind ?? `${names.kind}List`,
        'ListKindConflict',
        names.listKind ? '/spec/names/listKind' : '/spec/names/kind',
      ],
    ];
    for (const [space, name, reason, pointer] of wanted) {
      const owner = this.#claims.get(`${group}/${space}:${name}`);
      if (owner !== undefined && owner !== crd) {
        report.add(
          'invalid-definition',
          pointer,
          `${reason}: the ${space} ${JSON.stringify(name)} of group ${group} is already in use by the CustomResourceDefinition ${owner}, so the API server does not serve ${crd}`,
          { rule: reason },
        );
        return false;
      }
    }
    for (const [space, name] of wanted) this.#claims.set(`${group}/${space}:${name}`, crd);
    return true;
  }
}

/** A DNS-1035 label, as the API server checks a CRD's names (a kind once lower-cased). */
export const DNS_1035_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * A CRD's names the API server checks as DNS-1035 labels (its kinds once lower-cased), each with
 * its pointer and what it is; an empty singular or list kind is one the API server fills in.
 */
export function nameLabels(names: CrdNames): [string, string, string][] {
  const labels: [string, string, string][] = [
    ['/spec/names/plural', names.plural, 'plural'],
    ['/spec/names/kind', names.kind, 'kind'],
  ];
  if (names.singular) labels.push(['/spec/names/singular', names.singular, 'singular']);
  if (names.listKind) {
    labels.push(['/spec/names/listKind', names.listKind, 'list kind']);
  }
  (names.shortNames ?? []).forEach((name, i) => {
    labels.push([`/spec/names/shortNames/${i}`, name, 'short name']);
  });
  (names.categories ?? []).forEach((name, i) => {
    labels.push([`/spec/names/categories/${i}`, name, 'category']);
  });
  return labels;
}

/** The name a CRD that defines a kind would have: `certificates.cert-manager.io`. */
export function crdNameFor(kind: string, group: string): string {
  return `${pluralize.plural(kind).toLowerCase()}.${group}`;
}
