/**
 * Documents of an apiVersion no Kubernetes API can serve (a group without a dot that Kubernetes
 * does not serve, `release-notes/v2`; a version without a group, `v1alpha1`): most likely another
 * tool's files, which a repository holds by the hundred (istio's 1,837 release notes). A report
 * for people lists the first {@link LISTED_PER_API_VERSION} of each apiVersion and says the rest
 * in one note naming it, its kinds and the directory they are in, so they do not bury the other
 * findings (the text lists at most `MAX_FINDINGS_SHOWN`). They stay errors: the case fails and
 * the summary counts them, `-o json` lists every one, and each apiVersion is named, so a typo in
 * a group is still seen (a typo of a built-in group, `app/v1`, is another rule, always listed).
 */

import type { Finding } from '../../../loaders/finding.js';
import { groupDigits } from './group-digits.js';

/** How many of one apiVersion's documents a report lists. */
export const LISTED_PER_API_VERSION = 3;

/** The kind and apiVersion of a `tool-kind` finding, from its own words. */
const TOOL_KIND = [
  /^no CustomResourceDefinition can define kind (\S+) of (\S+?): a CRD's group has a dot/,
  /^apiVersion (\S+) names no Kubernetes API/,
];

interface ApiVersionFiles {
  count: number;
  readonly kinds: Set<string>;
  /** The directory all its files are in (the longest common one), `undefined` before the first. */
  directory: string | undefined;
}

/** The `tool-kind` findings a report lists, and the note on those it leaves out. */
export class ToolKindFiles {
  readonly #byApiVersion = new Map<string, ApiVersionFiles>();

  /** Whether `finding` is listed: any that is not a `tool-kind` one is. */
  take(finding: Finding<string>): boolean {
    if (finding.code !== 'unknown-type' || finding.rule !== 'tool-kind') return true;
    const of = apiVersionOf(finding.message);
    if (of === undefined) return true;
    let files = this.#byApiVersion.get(of.apiVersion);
    if (files === undefined) {
      files = { count: 0, kinds: new Set(), directory: undefined };
      this.#byApiVersion.set(of.apiVersion, files);
    }
    files.count++;
    if (of.kind !== undefined) files.kinds.add(of.kind);
    const directory = directoryOf(finding.file);
    files.directory =
      files.directory === undefined ? directory : commonDirectory(files.directory, directory);
    return files.count <= LISTED_PER_API_VERSION;
  }

  /**
   * `note[tool-kind]: 1,834 more documents of apiVersion release-notes/v2 (kinds bug-fix,
   * feature; all in istio/releasenotes/notes/) have the error above ...`, one per apiVersion some
   * were left out of.
   */
  get notes(): string[] {
    const notes: string[] = [];
    for (const [apiVersion, files] of this.#byApiVersion) {
      const hidden = files.count - LISTED_PER_API_VERSION;
      if (hidden <= 0) continue;
      const kinds = [...files.kinds].sort();
      const named = kinds.slice(0, 3).join(', ') + (kinds.length > 3 ? ', ...' : '');
      const where =
        files.directory === undefined || files.directory === ''
          ? ''
          : `; all in ${files.directory}`;
      notes.push(
        `note[tool-kind]: ${groupDigits(hidden)} more documents of apiVersion ${apiVersion} (kind${kinds.length === 1 ? '' : 's'} ${named}${where}) have the error above, not listed: no Kubernetes API serves that apiVersion, so they are most likely another tool's files; leave them out (--ignore, or .cosiignore) or skip them with --ignore-unknown-kinds`,
      );
    }
    return notes;
  }
}

function apiVersionOf(message: string): { apiVersion: string; kind?: string } | undefined {
  const crd = TOOL_KIND[0]?.exec(message);
  if (crd?.[1] !== undefined && crd[2] !== undefined) return { apiVersion: crd[2], kind: crd[1] };
  const bare = TOOL_KIND[1]?.exec(message);
  return bare?.[1] === undefined ? undefined : { apiVersion: bare[1] };
}

/** A file's directory with its trailing `/` (`''` for a file in the working directory). */
function directoryOf(file: string): string {
  return file.slice(0, file.lastIndexOf('/') + 1);
}

/** The longest directory (ending in `/`) both `a` and `b` are in. */
function commonDirectory(a: string, b: string): string {
  let end = 0;
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) {
    if (a[i] === '/') end = i + 1;
  }
  return a.slice(0, end);
}
