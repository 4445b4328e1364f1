/**
 * The ids of an RGD's resources (`spec.resources[].id`), as kro takes them: lowerCamelCase, not
 * one of its reserved words, each once. A resource refused for its id keeps its place, as ''.
 */

import { isPlainObject } from '../manifest-document.js';
import { KRO_RESERVED_WORDS } from './template-constraints.js';

/** What an id (and a forEach iterator's name) must look like. */
export const ID = /^[a-z][a-zA-Z0-9]*$/;

/** Each resource's id in declaration order, '' for one `refuse`d (at its `id`). */
export function resourceIds(
  resources: readonly unknown[],
  refuse: (path: (string | number)[], message: string) => void,
): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  resources.forEach((resource, i) => {
    const id = isPlainObject(resource) ? resource.id : undefined;
    if (typeof id !== 'string' || !ID.test(id)) {
      refuse(
        ['spec', 'resources', i, 'id'],
        'every resource needs an id in lowerCamelCase (deployment, webService)',
      );
      ids.push('');
    } else if (KRO_RESERVED_WORDS.has(id)) {
      refuse(
        ['spec', 'resources', i, 'id'],
        `the id ${JSON.stringify(id)} is a reserved keyword in kro`,
      );
      ids.push('');
    } else if (seen.has(id)) {
      refuse(['spec', 'resources', i, 'id'], `the id ${JSON.stringify(id)} is used twice`);
      ids.push('');
    } else {
      ids.push(id);
      seen.add(id);
    }
  });
  return ids;
}
