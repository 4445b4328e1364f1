import type { Pointer } from '../engine/resource/pointer.js';
import type { UserCodeMonitor, UserCodeSite } from './user-code-site.js';

/*
 * The heartbeat of a project worker: a SharedArrayBuffer the worker writes before each entry
 * into the project's code and the supervisor reads, even while the worker is stuck in a loop
 * that never yields. Strings are UTF-16 code units: controller names, namespaces and types are
 * written once into a table and referred to by index (a run has few of them); an item's id is
 * written on each reconcile. The header's sequence is odd while a write is under way (a seqlock):
 * the reader retries until it reads the same even sequence before and after. The writes are
 * plain stores (an atomic one per reconcile would cost more than the rest): the supervisor reads
 * a site only when the worker has not moved for a while, long after they are visible.
 */

const SEQ = 0;
const KIND = 1;
const CONTROLLER = 2;
const NAMESPACE = 3;
const TYPE = 4;
const ID_LENGTH = 5;
/** Bumped by a timer of the worker's event loop: it stops when the worker's JavaScript does not yield. */
const ALIVE = 6;
const NAMES_USED = 7;
const NAMES_COUNT = 8;
/** The config file's name, once the config was entered: kept through every later site. */
const CONFIG_FILE = 9;
/** What the worker is at, in its caller's terms (a scenario's step), plus one: 0 is none. */
const MARK = 10;
const HEADER = 16;

const MAX_NAMES = 4096;
const NAME_CHARS = 1 << 16;
const MAX_ID = 512;

const KINDS = ['cosi', 'config', 'setup', 'reconcile'] as const;

const NAME_TABLE_OFFSET = HEADER * 4;
const NAME_CHARS_OFFSET = NAME_TABLE_OFFSET + MAX_NAMES * 2 * 4;
const ID_OFFSET = NAME_CHARS_OFFSET + NAME_CHARS * 2;
const BYTES = ID_OFFSET + MAX_ID * 2;

/** The shared memory of one worker's heartbeat: made by the supervisor, written by the worker. */
export function createHeartbeatBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(BYTES);
}

interface Views {
  readonly header: Int32Array;
  /** Per name: its start and its length in `chars`. */
  readonly table: Int32Array;
  readonly chars: Uint16Array;
  readonly id: Uint16Array;
}

function viewsOf(buffer: SharedArrayBuffer): Views {
  return {
    header: new Int32Array(buffer, 0, HEADER),
    table: new Int32Array(buffer, NAME_TABLE_OFFSET, MAX_NAMES * 2),
    chars: new Uint16Array(buffer, NAME_CHARS_OFFSET, NAME_CHARS),
    id: new Uint16Array(buffer, ID_OFFSET, MAX_ID),
  };
}

/**
 * The worker's side: a {@link UserCodeMonitor} that writes each site into `buffer`, and a timer
 * (unref'd) that beats while the event loop turns. `stop()` ends the timer.
 */
export function heartbeatWriter(buffer: SharedArrayBuffer): UserCodeMonitor & {
  /** Says what the worker is at (a non-negative number the supervisor knows the meaning of). */
  mark(at: number): void;
  stop(): void;
} {
  const views = viewsOf(buffer);
  const { header } = views;
  const names = new Map<string, number>();
  const indexOf = (name: string): number => {
    const known = names.get(name);
    if (known !== undefined) return known;
    const index = addName(views, name);
    names.set(name, index);
    return index;
  };
  const write = (kind: number, controller: number, pointer: Pointer | undefined): void => {
    header[SEQ] = word(header, SEQ) + 1;
    header[KIND] = kind;
    header[CONTROLLER] = controller;
    if (pointer === undefined) {
      header[NAMESPACE] = -1;
    } else {
      header[NAMESPACE] = indexOf(pointer.namespace);
      header[TYPE] = indexOf(pointer.type);
      header[ID_LENGTH] = putChars(views.id, 0, pointer.id, MAX_ID);
    }
    header[SEQ] = word(header, SEQ) + 1;
  };
  const timer = setInterval(() => {
    Atomics.add(header, ALIVE, 1);
  }, 50);
  timer.unref();
  return {
    enter: (site: UserCodeSite) => {
      if (site.kind === 'config' && site.file !== undefined) {
        header[CONFIG_FILE] = indexOf(site.file) + 1;
      }
      if (site.kind === 'reconcile') write(3, indexOf(site.controller), site.pointer);
      else write(KINDS.indexOf(site.kind), -1, undefined);
    },
    leave: () => {
      write(0, -1, undefined);
    },
    reconcile: (controller, pointer) => {
      write(3, indexOf(controller), pointer);
    },
    mark: (at) => {
      Atomics.store(header, MARK, at + 1);
    },
    stop: () => {
      clearInterval(timer);
    },
  };
}

/** Appends a name to the table; -1 when the table is full (the reader then says `?`). */
function addName({ header, table, chars }: Views, name: string): number {
  const count = word(header, NAMES_COUNT);
  const used = word(header, NAMES_USED);
  if (count >= MAX_NAMES || used + name.length > NAME_CHARS) return -1;
  putChars(chars, used, name, name.length);
  table[count * 2] = used;
  table[count * 2 + 1] = name.length;
  header[NAMES_USED] = used + name.length;
  // Published last: the reader never sees an index whose characters are not there.
  Atomics.store(header, NAMES_COUNT, count + 1);
  return count;
}

/** A word of the buffer (always there: the views are made to size). */
function word(array: Int32Array, index: number): number {
  return array[index] ?? 0;
}

function putChars(target: Uint16Array, at: number, text: string, max: number): number {
  const n = Math.min(text.length, max);
  for (let i = 0; i < n; i++) target[at + i] = text.charCodeAt(i);
  return n;
}

/** What the supervisor reads: the last site entered, its sequence, and the event loop's beat. */
export interface HeartbeatReading {
  /** Changes at every entry and every leave. */
  readonly seq: number;
  readonly alive: number;
  /** `undefined`: cosi's own code, none of the project's. */
  readonly site: UserCodeSite | undefined;
  /** The config file's display path, once the config was entered. */
  readonly config?: string;
  /** The worker's last mark, when it made one. */
  readonly mark?: number;
}

/** The supervisor's side: reads the last site the worker entered, consistently. */
export function heartbeatReader(buffer: SharedArrayBuffer): () => HeartbeatReading {
  const views = viewsOf(buffer);
  const { header } = views;
  const nameAt = (index: number): string => {
    if (index < 0 || index >= Atomics.load(header, NAMES_COUNT)) return '?';
    const start = word(views.table, index * 2);
    return String.fromCharCode(
      ...views.chars.subarray(start, start + word(views.table, index * 2 + 1)),
    );
  };
  return () => {
    // The worker writes a site in well under a microsecond, and never stops inside a write (no
    // code of the project's runs there); a write of a worker terminated halfway is read as is.
    for (let tries = 0; ; tries++) {
      const seq = Atomics.load(header, SEQ);
      const kind = KINDS[word(header, KIND)] ?? 'cosi';
      const controller = word(header, CONTROLLER);
      const namespace = word(header, NAMESPACE);
      const type = word(header, TYPE);
      const id = String.fromCharCode(...views.id.subarray(0, word(header, ID_LENGTH)));
      if ((seq % 2 === 1 || Atomics.load(header, SEQ) !== seq) && tries < 1000) continue;
      const alive = Atomics.load(header, ALIVE);
      let site: UserCodeSite | undefined;
      if (kind === 'reconcile') {
        site = {
          kind,
          controller: nameAt(controller),
          ...(namespace < 0
            ? {}
            : { pointer: { namespace: nameAt(namespace), type: nameAt(type), id } }),
        };
      } else if (kind !== 'cosi') {
        site = { kind };
      }
      const config = word(header, CONFIG_FILE) - 1;
      const mark = Atomics.load(header, MARK) - 1;
      return {
        seq,
        alive,
        site,
        ...(config < 0 ? {} : { config: nameAt(config) }),
        ...(mark < 0 ? {} : { mark }),
      };
    }
  };
}
