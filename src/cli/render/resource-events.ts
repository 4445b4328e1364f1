import { outputYaml } from '../../app/output-yaml.js';
import { toDocument } from '../../app/output-document.js';
import type { ResourceGroup } from '../../app/resource-query.js';
import type { ResourceChange } from '../../app/selection-changes.js';
import { resourceTableColumns, type ResourceTableColumns } from './resource-table.js';
import { writeResources, type RenderOptions, type ResourceFormat } from './resources.js';
import { columnWidths, tableLine, widenColumns } from './table.js';

/** How `cosi get -w` prints: the `-o` format's options, and kubectl's watch-event flag. */
export interface ResourceEventOptions extends RenderOptions {
  /**
   * `--output-watch-events`: each row starts with ADDED, MODIFIED or DELETED (an EVENT column);
   * JSON and YAML print `{ type, object }` documents.
   */
  readonly events?: boolean;
}

/** Prints what `cosi get -w` shows: the resources at first, then one change at a time. */
export interface ResourceEventWriter {
  /** The first listing: as `cosi get` prints it (its rows ADDED, with events). */
  initial(groups: readonly ResourceGroup[]): void;
  /**
   * One change, as kubectl's watch prints it: a row (its header again only after a row of
   * another type), a document, a line.
   */
  change(change: ResourceChange): void;
}

/** The formats `--output-watch-events` applies to. */
export function takesWatchEvents(format: ResourceFormat): boolean {
  return typeof format === 'string';
}

/**
 * A writer of `cosi get -w`'s output in `format`. Tables print their header with a type's first
 * row, and again (after a blank line) when a row follows one of another type, as kubectl's table
 * printer does when the columns change: a row is never under another type's header. Each type's
 * table keeps its column widths, widened when a row needs it;
 * JSON is one document per resource or change, YAML a `---` stream; templates and custom
 * columns run on each resource.
 */
export function createResourceEventWriter(
  format: ResourceFormat,
  write: (text: string) => void,
  options: ResourceEventOptions = {},
): ResourceEventWriter {
  if (format === 'table' || format === 'wide')
    return tableWriter(format === 'wide', write, options);
  const events = options.events === true && takesWatchEvents(format);
  const document = (change: ResourceChange): unknown => {
    const object = toDocument(change.resource, change.definition, {
      ...options,
      ...(change.ownerKinds === undefined ? {} : { ownerKinds: change.ownerKinds }),
    });
    return events ? { type: change.type, object } : object;
  };
  let printed = false;
  const one = (change: ResourceChange): string => {
    if (format === 'name') {
      const { type, id } = change.resource.metadata;
      return `${events ? `${change.type.padEnd(8)} ` : ''}${type.toLowerCase()}/${id}\n`;
    }
    if (format === 'json') return `${JSON.stringify(document(change), null, 2)}\n`;
    if (format === 'yaml') {
      return `---\n${outputYaml(document(change))}`;
    }
    // Templates and custom columns: the one resource, in the format; a custom-columns header
    // only before the first.
    let text = '';
    const group = {
      type: change.resource.metadata.type,
      definition: change.definition,
      ...(change.ownerKinds === undefined ? {} : { ownerKinds: change.ownerKinds }),
    };
    writeResources([{ ...group, resources: [change.resource] }], format, (t) => (text += t), {
      ...options,
      noHeaders: options.noHeaders === true || printed,
    });
    return text;
  };
  const each = (change: ResourceChange): void => {
    const text = one(change);
    if (text !== '') printed = true;
    write(text);
  };
  return {
    initial: (groups) => {
      for (const group of groups) {
        for (const resource of group.resources) {
          each({
            type: 'ADDED',
            resource,
            definition: group.definition,
            ...(group.ownerKinds === undefined ? {} : { ownerKinds: group.ownerKinds }),
          });
        }
      }
    },
    change: each,
  };
}

/** The widest event name. */
const EVENT_WIDTH = 'MODIFIED'.length;

/** A type's table as it is printed a row at a time. */
interface OpenTable {
  readonly columns: ResourceTableColumns;
  readonly header: readonly string[];
  readonly widths: number[];
}

function tableWriter(
  wide: boolean,
  write: (text: string) => void,
  options: ResourceEventOptions,
): ResourceEventWriter {
  const events = options.events === true;
  const noHeader = options.noHeaders === true;
  const tables = new Map<string, OpenTable>();
  let printed = false;
  /** The type of the table whose rows were printed last. */
  let lastType: string | undefined;
  /** Starts a type's table: a blank line after what came before, and its header. */
  const open = (
    type: string,
    columns: ResourceTableColumns,
    rows: readonly (readonly string[])[],
  ): OpenTable => {
    const header = [...(events ? ['EVENT'] : []), ...columns.header];
    const widths = columnWidths(header, rows, { noHeader });
    // The EVENT column fits every event from the start: MODIFIED is its widest.
    if (events) widths[0] = Math.max(widths[0] as number, EVENT_WIDTH);
    const table = { columns, header, widths };
    tables.set(type, table);
    showHeader(type, table);
    return table;
  };
  /** A blank line after what came before, and the table's header (unless --no-headers). */
  const showHeader = (type: string, table: OpenTable): void => {
    let text = printed ? '\n' : '';
    if (!noHeader) text += tableLine(table.header, table.widths);
    printed = true;
    lastType = type;
    write(text);
  };
  return {
    initial: (groups) => {
      for (const group of groups) {
        if (group.resources.length === 0) continue;
        const columns = resourceTableColumns(group, wide, options);
        const rows = group.resources.map((resource) => [
          ...(events ? ['ADDED'] : []),
          ...columns.row(resource),
        ]);
        const table = open(group.type, columns, rows);
        write(rows.map((row) => tableLine(row, table.widths)).join(''));
      }
    },
    change: (change) => {
      const type = change.resource.metadata.type;
      const columns =
        tables.get(type)?.columns ??
        resourceTableColumns({ type, definition: change.definition }, wide, options);
      const row = [...(events ? [change.type] : []), ...columns.row(change.resource)];
      // A type's first row comes with its header, as wide as the row needs.
      const opened = tables.get(type);
      const table = opened ?? open(type, columns, [row]);
      widenColumns(table.widths, row);
      // After a row of another type: this type's header again, as wide as its rows now are.
      if (opened !== undefined && lastType !== type && !noHeader) showHeader(type, table);
      lastType = type;
      write(tableLine(row, table.widths));
    },
  };
}
