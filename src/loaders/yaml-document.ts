import type { ParsedDocument } from './parsed-document.js';
import type { Position, StreamPositions } from './position.js';

/** A parsed document; positions are looked up in its source only when a finding needs one. */
export class YamlDocument implements ParsedDocument {
  constructor(
    readonly file: string,
    readonly index: number,
    readonly position: Position,
    readonly value: unknown,
    readonly hasErrors: boolean,
    readonly source: StreamPositions,
  ) {}

  locate(pointer: string, part: 'key' | 'value' = 'value'): Position {
    return this.source.locate(this.index, pointer, part);
  }

  locateText(pointer: string, text: string, occurrence: number): Position {
    return this.source.locateText(this.index, pointer, text, occurrence);
  }

  /** This document, marked as having an error (found outside its syntax tree). */
  withErrors(): YamlDocument {
    return new YamlDocument(this.file, this.index, this.position, this.value, true, this.source);
  }
}
