/** A parsed manifest file, as `parseManifest` gives it, and the options of a parse. */
import type { Finding } from './finding.js';
import type { AppliedBy } from './applied-by.js';
import type { ParsedDocument } from './parsed-document.js';
import type { Position } from './position.js';

export type { ParsedDocument } from './parsed-document.js';

/** Options of `parseManifest`. */
export interface ParseManifestOptions {
  /**
   * How many aliases one document may expand, counting the aliases inside expanded anchors
   * again each time (as yaml's `maxAliasCount`). More is an `alias-bomb`. Default: no count;
   * aliasing is bounded as kubectl (go-yaml) bounds it, by the share of the document's nodes
   * that expansions make (past 100 such nodes and 1,000 in all, at most 99% of a small
   * document and 10% of a very large one).
   */
  readonly maxAliasCount?: number;
  /**
   * How deeply collections may nest, aliases included. Deeper is `nesting-too-deep`. Default
   * 256; input nesting deeper than 400 is refused before it is parsed, whatever this says.
   */
  readonly maxDepth?: number;
}

/** Options of one `parseManifest` call: the limits, and where the text stands in its file. */
export interface ParseTextOptions extends ParseManifestOptions {
  /**
   * Where the text starts in the file it is named for, when it is an excerpt of it (a scenario's
   * inline document): positions are counted from there. Default: line 1, column 1.
   */
  readonly origin?: Position;
}

/** What `parseManifest` returns. */
export interface ParsedManifest {
  readonly file: string;
  /** The non-empty documents, in order. */
  readonly documents: readonly ParsedDocument[];
  readonly findings: readonly Finding[];
  /**
   * The end-to-end test that applies the file, and the namespace it applies it in (as `kubectl
   * apply -n`); `undefined`: none does. Not the parse's: given with the file
   * (`ManifestFile.appliedBy`).
   */
  readonly appliedBy?: AppliedBy;
}
