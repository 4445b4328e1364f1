import type { TypeGroup } from './round-view.js';

/**
 * The groups and rows a filter keeps. The filter matches a type (any of its names, or part of
 * its display type: the whole group), an id (part of it), or a label (`key=value`, or `key` for
 * any value). Empty keeps everything; matching is case-insensitive.
 */
export function filterGroups(groups: readonly TypeGroup[], filter: string): readonly TypeGroup[] {
  const query = filter.trim().toLowerCase();
  if (query === '') return groups;
  const eq = query.indexOf('=');
  const label = eq > 0 ? { key: query.slice(0, eq), value: query.slice(eq + 1) } : undefined;
  const kept: TypeGroup[] = [];
  for (const group of groups) {
    if (
      label === undefined &&
      (group.names.includes(query) || group.displayType.toLowerCase().includes(query))
    ) {
      kept.push(group);
      continue;
    }
    const rows = group.rows.filter((row) => {
      const md = row.resource.metadata;
      if (label !== undefined) {
        return Object.entries(md.labels).some(
          ([k, v]) => k.toLowerCase() === label.key && v.toLowerCase() === label.value,
        );
      }
      return (
        md.id.toLowerCase().includes(query) ||
        Object.keys(md.labels).some((k) => k.toLowerCase() === query)
      );
    });
    if (rows.length > 0) kept.push({ ...group, rows });
  }
  return kept;
}
