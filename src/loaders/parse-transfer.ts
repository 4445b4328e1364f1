/**
 * A manifest file's parse as plain data, to be made on one thread and used on another (see
 * `preparsed-manifests.ts`): what crosses a `postMessage` is data, not the parse's objects (its
 * documents find positions through their source, which is a class).
 */
import type { Finding } from './finding.js';
import { LineIndex } from './line-index.js';
import { ShiftedLineIndex } from './relaxed-indentation.js';
import { InsertedTextIndex } from './json-stream.js';
import type { ParsedManifest, ParseTextOptions } from './parsed-manifest.js';
import { samePosition, type Position } from './position.js';
import { YamlDocument } from './yaml-document.js';
import { YamlSource } from './yaml-source.js';

/** `parseManifest`'s answer for one file, as data a structured clone copies. */
export interface ParseTransfer {
  readonly file: string;
  /** The text parsed, as read: the parse is used only for this text. */
  readonly written: string;
  /**
   * The limits it was parsed with, and the text's place in its file, as given: the parse is
   * used only with the same.
   */
  readonly limits: ParseTextOptions;
  /** The text positions are counted in, when it is not `written` (byte order marks removed). */
  readonly text?: string;
  /** Each document's range in the text (see `YamlSource.documentRanges`), when there are any. */
  readonly ranges?: Uint32Array;
  /** The starts of each list document's items (see `YamlSource.listItems`), when there are any. */
  readonly listItems?: ReadonlyMap<number, Uint32Array>;
  /**
   * The spaces added at the start of lines (line, count) when the text is one relaxed as kubectl
   * reads it (`relaxed-indentation.ts`): positions count them back.
   */
  readonly shifts?: readonly (readonly [number, number])[];
  /**
   * What was inserted (offset, length) when the text is a JSON stream made a YAML stream
   * (`json-stream.ts`): positions count it out.
   */
  readonly insertions?: readonly (readonly [number, number])[];
  readonly documents: readonly {
    readonly index: number;
    readonly position: Position;
    readonly value: unknown;
    readonly hasErrors: boolean;
  }[];
  readonly findings: readonly Finding[];
}

/**
 * `parsed` (`parseManifest(written, parsed.file, limits)`'s answer) as data: a structured clone
 * of it is {@link revivedParse}d on the other side.
 */
export function toTransfer(
  parsed: ParsedManifest,
  written: string,
  limits: ParseTextOptions = {},
): ParseTransfer {
  const source = parsed.documents[0]?.source;
  const yaml = source instanceof YamlSource ? source : undefined;
  return {
    file: parsed.file,
    written,
    limits: {
      ...(limits.maxAliasCount === undefined ? {} : { maxAliasCount: limits.maxAliasCount }),
      ...(limits.maxDepth === undefined ? {} : { maxDepth: limits.maxDepth }),
      ...(limits.origin === undefined ? {} : { origin: limits.origin }),
    },
    ...(yaml === undefined
      ? {}
      : {
          ranges: yaml.documentRanges(),
          ...(yaml.listItems().size === 0 ? {} : { listItems: yaml.listItems() }),
          ...(yaml.text === written ? {} : { text: yaml.text }),
          ...(yaml.lineCounter instanceof ShiftedLineIndex
            ? { shifts: [...yaml.lineCounter.shifts] }
            : {}),
          ...(yaml.lineCounter instanceof InsertedTextIndex
            ? { insertions: yaml.lineCounter.insertions }
            : {}),
        }),
    documents: parsed.documents.map(({ index, position, value, hasErrors }) => ({
      index,
      position,
      value,
      hasErrors,
    })),
    findings: parsed.findings,
  };
}

/** Whether `transfer` is the parse of `written` as `file` with these limits. */
export function isParseOf(
  transfer: ParseTransfer,
  written: string,
  file: string,
  limits: ParseTextOptions,
): boolean {
  return (
    transfer.file === file &&
    transfer.limits.maxAliasCount === limits.maxAliasCount &&
    transfer.limits.maxDepth === limits.maxDepth &&
    samePosition(transfer.limits.origin, limits.origin) &&
    transfer.written === written
  );
}

/** The parse a {@link ParseTransfer} holds, as `parseManifest` returned it where it was made. */
export function revivedParse(transfer: ParseTransfer): ParsedManifest {
  const text = transfer.text ?? transfer.written;
  const source =
    transfer.ranges === undefined
      ? undefined
      : YamlSource.restored(
          text,
          transfer.insertions !== undefined
            ? new InsertedTextIndex(text, transfer.insertions, transfer.limits.origin)
            : transfer.shifts === undefined
              ? new LineIndex(text, transfer.limits.origin)
              : new ShiftedLineIndex(text, new Map(transfer.shifts), transfer.limits.origin),
          transfer.ranges,
          transfer.listItems,
        );
  return {
    file: transfer.file,
    documents: transfer.documents.map(
      ({ index, position, value, hasErrors }) =>
        // A document comes with a source: `ranges` is there whenever documents are.
        new YamlDocument(transfer.file, index, position, value, hasErrors, source as YamlSource),
    ),
    findings: transfer.findings,
  };
}
