import { pointerKey, type Pointer } from '../engine/resource/pointer.js';
import { isResourceEvent, type ResourceEvent, type State } from '../engine/state/state.js';
import { jsonPointer } from '../loaders/json-pointer.js';

/** At most this many changed fields are named per resource. */
const MAX_FIELDS = 5;

/**
 * For each resource, the fields (JSON pointers into `{ metadata, spec }`) its last write changed:
 * what a resource that kept changing kept changing. Read from the state's history of recent
 * changes; a resource whose last change is no longer there (or was a create) has none.
 */
export async function lastChangedFields(
  state: State,
  pointers: readonly Pointer[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const pointer of pointers) {
    const event = await lastChange(state, pointer);
    if (event?.type !== 'updated') continue;
    const fields = [
      ...changedPaths(event.old.spec, event.resource.spec, '/spec'),
      ...changedPaths(
        event.old.metadata.labels,
        event.resource.metadata.labels,
        '/metadata/labels',
      ),
      ...changedPaths(
        event.old.metadata.annotations,
        event.resource.metadata.annotations,
        '/metadata/annotations',
      ),
    ];
    if (fields.length > 0) out.set(pointerKey(pointer), fields.slice(0, MAX_FIELDS));
  }
  return out;
}

async function lastChange(state: State, pointer: Pointer): Promise<ResourceEvent | undefined> {
  const abort = new AbortController();
  let last: ResourceEvent | undefined;
  let resolveFirst!: () => void;
  const first = new Promise<void>((resolve) => (resolveFirst = resolve));
  await state.watch(
    pointer,
    (event) => {
      if (isResourceEvent(event)) last = event;
      resolveFirst();
    },
    { tailEvents: 1, signal: abort.signal },
  );
  // The replay is delivered asynchronously; a state with no history for it delivers nothing.
  await Promise.race([first, new Promise((resolve) => setImmediate(resolve))]);
  abort.abort();
  return last;
}

/** JSON pointers of the values that differ between two plain-data trees. */
function changedPaths(a: unknown, b: unknown, at: string): string[] {
  if (Object.is(a, b)) return [];
  const objects = typeof a === 'object' && a !== null && typeof b === 'object' && b !== null;
  if (!objects || Array.isArray(a) !== Array.isArray(b)) {
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [at];
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort();
  return keys.flatMap((key) => changedPaths(ao[key], bo[key], `${at}${jsonPointer([key])}`));
}
