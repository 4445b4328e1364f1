import { idMatches, queriesMatch } from '../resource/label-query.js';
import type { Resource } from '../resource/resource.js';
import type { ListOptions, ResourceEvent } from './state.js';

/** Whether list options filter at all (label queries, an id query or an owner). */
export function hasFilters(options: ListOptions): boolean {
  const { labelQueries } = options;
  return (
    (labelQueries !== undefined && labelQueries.length > 0) ||
    options.idQuery !== undefined ||
    options.owner !== undefined
  );
}

/** Whether a resource passes the owner, id and label filters of a list or watch. */
export function matchesFilters(resource: Resource, options: ListOptions): boolean {
  const md = resource.metadata;
  return (
    (options.owner === undefined || md.owner === options.owner) &&
    idMatches(md.id, options.idQuery) &&
    queriesMatch(md.labels, options.labelQueries)
  );
}

/**
 * What a filtered watch sees of a change, or undefined when it does not concern the watch. An
 * update that makes a resource start matching is seen as `created`, one that makes it stop
 * matching as `destroyed` (with the update's bookmark), so every backend filters the same way.
 */
export function filterEvent(event: ResourceEvent, filters: ListOptions): ResourceEvent | undefined {
  if (!hasFilters(filters)) return event;
  if (event.type !== 'updated') return matchesFilters(event.resource, filters) ? event : undefined;
  const was = matchesFilters(event.old, filters);
  const is = matchesFilters(event.resource, filters);
  const { resource, bookmark } = event;
  if (was && is) return event;
  if (is) return withBookmark({ type: 'created', resource }, bookmark);
  if (was) return withBookmark({ type: 'destroyed', resource }, bookmark);
  return undefined;
}

function withBookmark(event: ResourceEvent, bookmark: string | undefined): ResourceEvent {
  return bookmark === undefined ? event : { ...event, bookmark };
}
