/**
 * The network side of `--schema-location https://...`, as kubeconform reads such a location: a
 * schema's URL answered 404 is not there (the next location is asked), any other failure is the
 * kind's error, and what was downloaded is kept for the run (and on disk under
 * `--schema-cache DIR`, as kubeconform's `-cache`).
 *
 * A kind is looked up in the middle of a load, which is synchronous, so the reader it gets
 * answers from what is here already and calls a URL it does not have `pending`; the project's
 * reader then downloads every pending URL at once ({@link SchemaDownloads.downloadPending}, a
 * few in flight) and reads the manifests again. A run whose schemas are all cached reads once.
 */

import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { decodeManifest } from '../loaders/decode-manifest.js';
import type { ReadSchemaFile, SchemaFileRead } from '../loaders/kubernetes/json-schema-kinds.js';
import { MAX_CRD_BYTES } from '../loaders/parse/parse-manifest.js';
import { privateDirectory } from '../loaders/private-directory.js';
import { schemaFileReader } from './schema-file-reader.js';

/** Downloads in flight at once. */
const IN_FLIGHT = 8;
/** How long one download may take, headers and body. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** Where {@link SchemaDownloads} keeps schemas between runs, and how it fetches. */
export interface SchemaDownloadOptions {
  /** `--schema-cache`: a directory of downloaded schemas, made if missing. */
  readonly cacheDirectory?: string;
  /** The working directory, for a relative cache directory and local locations. */
  readonly cwd: string;
  /** The fetch to use (tests count requests); the global one by default. */
  readonly fetch?: typeof fetch;
}

/** The schemas of URL locations a run downloaded, and the ones its loads are waiting for. */
export class SchemaDownloads {
  /** URL -> what it gave: a schema's text, `missing` (404, 410), or an error. */
  readonly #downloaded = new Map<string, SchemaFileRead>();
  readonly #pending = new Set<string>();
  readonly #cache: string | undefined;
  /** Whether the cache directory could not be used (said once, in the first download's error). */
  #cacheRefused = false;

  constructor(readonly options: SchemaDownloadOptions) {
    if (options.cacheDirectory !== undefined) {
      const directory = resolve(options.cwd, options.cacheDirectory);
      this.#cache = privateDirectory(directory);
      this.#cacheRefused = this.#cache === undefined;
    }
  }

  /** Reads local paths from the disk and URLs from what was downloaded (or is in the cache). */
  reader(): ReadSchemaFile {
    const files = schemaFileReader(this.options.cwd);
    return (path) => {
      if (!/^https?:\/\//i.test(path)) return files(path);
      const known = this.#downloaded.get(path) ?? this.#cached(path);
      if (known !== undefined) return known;
      this.#pending.add(path);
      return { pending: true };
    };
  }

  /** Whether a load asked for a URL that is not downloaded yet. */
  get hasPending(): boolean {
    return this.#pending.size > 0;
  }

  /** Downloads every pending URL, a few at a time; a failure is kept as that URL's error. */
  async downloadPending(): Promise<void> {
    const urls = [...this.#pending];
    this.#pending.clear();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < urls.length) {
        const url = urls[next++] as string;
        const read = await this.#download(url);
        this.#downloaded.set(url, read);
        if ('text' in read) this.#store(url, read.text);
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, urls.length) }, worker));
  }

  async #download(url: string): Promise<SchemaFileRead> {
    const fetchImpl = this.options.fetch ?? fetch;
    const failed = (why: string): SchemaFileRead => ({
      error: `${url} could not be downloaded: ${why}${this.#cacheRefused ? ` (and --schema-cache ${this.options.cacheDirectory ?? ''} is not a directory of this user's alone: not used)` : ''}`,
    });
    try {
      const response = await fetchImpl(url, {
        redirect: 'follow',
        signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
      });
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return { missing: true };
      }
      if (!response.ok) {
        await response.body?.cancel();
        return failed(
          `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
        );
      }
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > MAX_CRD_BYTES) {
        await response.body?.cancel();
        return failed(`it is over ${MAX_CRD_BYTES / 1024 / 1024} MB`);
      }
      const body = new Uint8Array(await response.arrayBuffer());
      if (body.byteLength > MAX_CRD_BYTES) {
        return failed(`it is over ${MAX_CRD_BYTES / 1024 / 1024} MB`);
      }
      return { text: decodeManifest(body) };
    } catch (error) {
      return failed(describeFetchError(error));
    }
  }

  /** A URL's schema from the cache directory, or `undefined`. */
  #cached(url: string): SchemaFileRead | undefined {
    if (this.#cache === undefined) return undefined;
    try {
      const file = this.#cacheFile(url);
      // Only a regular file of a schema's size: a FIFO there blocked the run for ever.
      const stats = statSync(file);
      if (!stats.isFile() || stats.size > MAX_CRD_BYTES) return undefined;
      const read = { text: decodeManifest(readFileSync(file)) };
      this.#downloaded.set(url, read);
      return read;
    } catch {
      // Not cached (or not readable): downloaded again.
      return undefined;
    }
  }

  /** Keeps a downloaded schema in the cache directory (written whole, then renamed). */
  #store(url: string, text: string): void {
    if (this.#cache === undefined) return;
    const file = this.#cacheFile(url);
    const partial = `${file}.${process.pid}.partial`;
    try {
      writeFileSync(partial, text, { mode: 0o600 });
      renameSync(partial, file);
    } catch {
      // A cache that cannot be written costs a download next time, nothing else.
    }
  }

  /** A URL's file in the cache: the SHA-256 of the URL, as kubeconform names its cache files. */
  #cacheFile(url: string): string {
    // `node:crypto` only for a run with a cache: a check loads it otherwise not at all.
    const name = process
      .getBuiltinModule('node:crypto')
      .createHash('sha256')
      .update(url)
      .digest('hex');
    return join(this.#cache as string, `${name}.json`);
  }
}

/** Why a fetch failed, in a few words: undici's cause (`ECONNREFUSED`) rather than "fetch failed". */
function describeFetchError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`;
  }
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  if (typeof cause === 'object' && cause !== null) {
    if ('code' in cause && typeof cause.code === 'string') return cause.code;
    if ('message' in cause && typeof cause.message === 'string') return cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
