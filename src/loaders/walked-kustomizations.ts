/**
 * The kustomizations a manifest walk met: read once the walk is over for the files they name.
 * A kustomization is no manifest, and neither are the patches and configuration files it names
 * (set aside); what it lists as a resource is one, read even where the walk did not go (a Helm
 * chart's directory, a hidden one). A kustomization whose first document is an object of another
 * kind is read as a manifest after all.
 */

import * as path from 'node:path';
import { compareStrings } from '../engine/compare-strings.js';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import type { ManifestWalkRecord, NamedFile } from './manifest-walk-record.js';
import { READ_CONCURRENCY } from './manifest-file-system.js';
import { readManifestFiles } from './read-manifest-files.js';
import { helmChart, JSON_FILE, kustomization, YAML_FILE } from './unrendered-sources.js';
import {
  isKustomizationFile,
  isObjectNotKustomization,
  kustomizationInputs,
} from './kustomization-inputs.js';
import { isBelow } from './path-containment.js';

export /** A file a kustomization names as other than a resource, live or in a comment. */
interface KustomizeInputOf {
  readonly file: string;
  /** The kustomization, as shown. */
  readonly by: string;
  readonly commented: boolean;
}

/** Reads the kustomizations a walk met, and tells the walk's tree which files they set aside. */
export class WalkedKustomizations {
  readonly #record: ManifestWalkRecord;

  constructor(record: ManifestWalkRecord) {
    this.#record = record;
  }

  /**
   * The kustomizations met or named, read once the walk is over (see {@link readKustomizations}):
   * set aside then, unless one holds an object of another kind.
   */
  readonly #kustomizations: NamedFile[] = [];

  /** Where each kustomization met is in `#kustomizations`, by real path. */
  readonly #kustomizationAt = new Map<string, number>();

  /**
   * Real path of a file a kustomization names as a patch or configuration (or as a patch in a
   * comment) -> the kustomization.
   */
  readonly #kustomizeInputs = new Map<string, KustomizeInputOf>();

  /**
   * Keeps a kustomization met, once: a glob that matches its directory and the file too (`'**'`)
   * meets it twice. Named, it is the named one.
   */
  add(found: NamedFile): void {
    const at = this.#kustomizationAt.get(found.real);
    if (at === undefined) {
      this.#kustomizationAt.set(found.real, this.#kustomizations.length);
      this.#kustomizations.push(found);
    } else if (found.named) this.#kustomizations[at] = found;
  }

  /**
   * Reads the kustomizations the walk met, a few at a time, for the files they name that are not
   * resources, which are then set aside too (see {@link tree}). One that cannot be read, or is
   * not YAML, is reported.
   */
  async read(): Promise<void> {
    const reads = await readManifestFiles(this.#record.fs, this.#kustomizations);
    const named: (KustomizeInputOf & { readonly dir: string })[] = [];
    const resources: { readonly file: string }[] = [];
    const resourceDirs: { readonly file: string; readonly dir: string; readonly shown: string }[] =
      [];
    const dirs = await this.#record.realDirs(this.#kustomizations);
    reads.forEach((read, i) => {
      const found = this.#kustomizations[i] as NamedFile;
      const { display, absolute } = found;
      if ('text' in read && isObjectNotKustomization(read.text)) {
        // A ConfigMap so named: kustomize refuses it, so nothing else would check it.
        if (found.named) this.#record.named.add(found.real);
        this.#record.addFile(found.real, display, absolute);
        return;
      }
      this.#record.unrendered.push(kustomization(display));
      if ('finding' in read) {
        this.#record.findings.push(read.finding);
        return;
      }
      const inputs = kustomizationInputs(read.text, display, absolute);
      if (inputs.finding) this.#record.findings.push(inputs.finding);
      const dir = dirs[i] as string;
      for (const file of inputs.files) named.push({ file, by: display, commented: false, dir });
      for (const file of inputs.commented) named.push({ file, by: display, commented: true, dir });
      for (const file of inputs.resources) resources.push({ file });
      // One met while walking: of one given by name (`cosi check *.yaml`), only what was named.
      if (!found.named) {
        for (const file of inputs.resources) resourceDirs.push({ file, dir, shown: display });
      }
    });
    await this.#addUnwalkedResources(resourceDirs);
    if (named.length === 0) return;
    // A file that is not there: kustomize's to report, not ours to skip.
    const reals = await this.#record.namedRealpaths(named);
    // What a kustomization lists as a resource, kustomize renders as one, whatever a patch line
    // (live or commented out, in it or another) says of the same file: read as a manifest.
    const resourceReals = new Set(await this.#record.namedRealpaths(resources));
    named.forEach((input, i) => {
      const real = reals[i];
      // Only below the kustomization's own directory: one elsewhere (`../../manifests/web.yaml`)
      // may be a manifest of its own, and a gate must not lose it to another file's say.
      if (real === undefined || !isBelow(real, input.dir) || resourceReals.has(real)) return;
      if (this.#record.namedApartFrom(real, input.dir)) return;
      // Named live before named in a comment; then by the first kustomization, by path.
      const known = this.#kustomizeInputs.get(real);
      const before =
        known === undefined ||
        (known.commented && !input.commented) ||
        (known.commented === input.commented && compareStrings(input.by, known.by) < 0);
      if (before)
        this.#kustomizeInputs.set(real, {
          file: input.file,
          by: input.by,
          commented: input.commented,
        });
    });
  }

  /**
   * Adds the YAML and JSON files the kustomizations met while walking list as resources that the
   * walk did not read: one in a Helm chart's directory (argo-cd's `redis-ha/chart/upstream.yaml`,
   * the chart rendered once and kept), a hidden one or a Go package's test data. `kustomize build` renders each as
   * a resource, so an invalid object there fails the build; set aside, it passed the check. Only
   * below the kustomization's own directory, as kustomize loads no other file, and not one the
   * ignore patterns skip. A chart's note no longer names a file of its root so read.
   */
  async #addUnwalkedResources(
    resources: readonly { readonly file: string; readonly dir: string; readonly shown: string }[],
  ): Promise<void> {
    const candidates = resources.filter(
      ({ file }) =>
        (YAML_FILE.test(file) || JSON_FILE.test(file)) &&
        !isKustomizationFile(path.basename(file)) &&
        !this.#record.isIgnored(file, false),
    );
    if (candidates.length === 0) return;
    const found = new Array<string | undefined>(candidates.length);
    await forEachConcurrently(candidates, READ_CONCURRENCY, async ({ file, dir }, i) => {
      try {
        if (!(await this.#record.fs.stat(file)).isFile()) return;
        const real = await this.#record.fs.realpath(file);
        if (isBelow(real, dir)) found[i] = real;
      } catch {
        // Not there: kustomize's to report.
      }
    });
    const read = new Set<string>();
    candidates.forEach(({ file, shown }, i) => {
      const real = found[i];
      if (real === undefined || this.#record.met.has(real)) return;
      this.#record.met.add(real);
      this.#record.addFile(
        real,
        path.isAbsolute(shown) ? file : path.relative(this.#record.cwd, file),
        file,
      );
      if (JSON_FILE.test(file)) this.#record.walkedJson.add(real);
      read.add(file);
    });
    if (read.size === 0) return;
    for (const chart of this.#record.charts) {
      const others = chart.others.filter(
        (name) => name.endsWith('/') || !read.has(path.join(chart.absolute, name)),
      );
      if (others.length < chart.others.length) {
        this.#record.unrendered[chart.index] = helmChart(chart.display, others);
      }
    }
  }

  /** The kustomization that sets the file at `real` aside, if one does (see {@link read}). */
  inputOf(real: string): KustomizeInputOf | undefined {
    return this.#kustomizeInputs.get(real);
  }
}
