/**
 * `--skip-kinds` and `--reject-kinds`: which documents a kind name given on the command line
 * stands for. A name is matched as kubeconform matches it (the kind, `apiVersion/kind`), and as
 * kubectl resolves a resource name (`secrets`, `po`, `Secrets.core`, a CRD's plural or short
 * name, a cosi type or alias): every version of the kind it resolves to. A name that stands for
 * no kind the run knows and matches no document is refused in `--reject-kinds`
 * ({@link UnknownKindFilterError}), so that a policy's typo (`--reject-kinds Secrest`) does not
 * stop the gate from gating, and said in `--skip-kinds` (`unknown-kind-filter`, a warning: a
 * misspelt skip skips nothing, so more is checked, not less).
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { createFinding, type Finding } from './finding.js';
import type { ManifestHeader } from './manifest-document.js';
import { didYouMean } from './did-you-mean.js';

/** The built-in kinds of the release, as far as names go (`BuiltinKinds`). */
export interface BuiltinKindNames {
  /** The kind a user's name stands for, as kubectl resolves it (`deploy`, `secrets`). */
  findByName(name: string): ResourceDefinition | undefined;
  /** The kind of a cosi type name (`Secrets.core`). */
  findByType(type: string): ResourceDefinition | undefined;
  /** Every kind of the release. */
  kinds(): string[];
}

/** What one flag's names stand for. */
interface KindNames {
  /** Whether any name was given. */
  readonly any: boolean;
  /** `kind` and `apiVersion/kind`, lower-cased, as kubeconform compares them -> the names. */
  readonly literal: Map<string, string[]>;
  /** `group/Kind` of the kinds the names resolve to -> the names. */
  readonly groupKinds: Map<string, string[]>;
  /** cosi types the names resolve to -> the names. */
  readonly types: Map<string, string[]>;
}

export class KindFilter {
  readonly #skip: KindNames;
  readonly #reject: KindNames;

  constructor(
    options: { readonly skipKinds?: readonly string[]; readonly rejectKinds?: readonly string[] },
    readonly registry: DefinitionRegistry,
    readonly builtins: BuiltinKindNames | undefined,
  ) {
    this.#skip = this.#names(options.skipKinds ?? []);
    this.#reject = this.#names(options.rejectKinds ?? []);
  }

  /** Whether a document of this header is skipped whole (`--skip-kinds`). */
  skips(header: ManifestHeader): boolean {
    return this.#matches(this.#skip, header);
  }

  /** Whether a document of this header is an error (`--reject-kinds`). */
  rejects(header: ManifestHeader): boolean {
    return this.#matches(this.#reject, header);
  }

  #names(given: readonly string[]): KindNames {
    const names: KindNames = {
      any: given.length > 0,
      literal: new Map(),
      groupKinds: new Map(),
      types: new Map(),
    };
    for (const name of given) {
      const lower = name.toLowerCase();
      // kubeconform's spellings, and the core group named (`core/v1/Secret` is `v1/Secret`).
      for (const literal of new Set([lower, lower.replace(/^core\//, '')])) {
        add(names.literal, literal, name);
      }
      for (const definition of resolveKindName(name, this.registry, this.builtins)) {
        add(names.types, definition.type, name);
        const k8s = definition.kubernetes;
        if (k8s !== undefined) {
          add(names.groupKinds, `${groupOf(k8s.apiVersion)}/${k8s.kind}`, name);
        }
      }
    }
    return names;
  }

  #matches(names: KindNames, header: ManifestHeader): boolean {
    if (!names.any) return false;
    const matched: string[] = [];
    const k8s = header.kubernetes;
    if (k8s !== undefined) {
      matched.push(
        ...(names.literal.get(k8s.kind.toLowerCase()) ?? []),
        ...(names.literal.get(`${k8s.apiVersion}/${k8s.kind}`.toLowerCase()) ?? []),
        ...(names.groupKinds.get(`${k8s.group}/${k8s.kind}`) ?? []),
      );
    } else if (header.type !== undefined) {
      matched.push(...(names.literal.get(header.type.toLowerCase()) ?? []));
      for (const definition of resolveKindName(header.type, this.registry, this.builtins)) {
        matched.push(...(names.types.get(definition.type) ?? []));
      }
    }
    return matched.length > 0;
  }
}

function add(map: Map<string, string[]>, key: string, name: string): void {
  const names = map.get(key);
  if (names === undefined) map.set(key, [name]);
  else if (!names.includes(name)) names.push(name);
}

/** The definitions a name stands for, as `cosi get` and kubectl resolve it (none: unknown). */
function resolveKindName(
  name: string,
  registry: DefinitionRegistry,
  builtins: BuiltinKindNames | undefined,
): ResourceDefinition[] {
  const found: ResourceDefinition[] = [];
  try {
    found.push(registry.resolve(name));
  } catch {
    // Not a cosi type, alias or registered kind: perhaps a built-in no document used.
  }
  const builtin = builtins?.findByName(name) ?? builtins?.findByType(name);
  if (builtin !== undefined) found.push(builtin);
  return found;
}

/**
 * A `--reject-kinds` name that stands for no kind Kubernetes, a CRD or the config defines and
 * matches no document: the gate would reject nothing, and pass what it is there to refuse. A
 * usage error (exit 2), as an unknown `--kubernetes-version` is.
 */
export class UnknownKindFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownKindFilterError';
  }
}

/**
 * A warning for each `--skip-kinds` name that stands for no kind the run knows and matches no
 * document of the whole read (`documents`), so it does nothing. A `--reject-kinds` name so is
 * thrown instead ({@link UnknownKindFilterError}), all such names in one message.
 */
export function unknownKindFilters(
  options: { readonly skipKinds?: readonly string[]; readonly rejectKinds?: readonly string[] },
  documents: readonly { readonly kind: string; readonly apiVersion?: string }[],
  registry: DefinitionRegistry,
  builtins: BuiltinKindNames | undefined,
): Finding[] {
  const skipKinds = options.skipKinds ?? [];
  const rejectKinds = options.rejectKinds ?? [];
  if (skipKinds.length === 0 && rejectKinds.length === 0) return [];
  const written = new Set<string>();
  for (const document of documents) {
    written.add(document.kind.toLowerCase());
    if (document.apiVersion !== undefined) {
      written.add(`${document.apiVersion}/${document.kind}`.toLowerCase());
    }
  }
  const unknown = (names: readonly string[]): { name: string; guess: string | undefined }[] =>
    [...new Set(names)].flatMap((name) => {
      const lower = name.toLowerCase();
      if (written.has(lower) || written.has(lower.replace(/^core\//, ''))) return [];
      if (resolveKindName(name, registry, builtins).length > 0) return [];
      const known = [
        ...registry.all().flatMap((d) => [d.type, ...(d.kubernetes ? [d.kubernetes.kind] : [])]),
        ...(builtins?.kinds() ?? []),
      ];
      return [{ name, guess: didYouMean(name, known) }];
    });
  const guessed = (guess: string | undefined): string =>
    guess === undefined ? '' : ` (did you mean ${guess}?)`;
  const refused = unknown(rejectKinds);
  if (refused.length > 0) {
    const names = refused.map(({ name, guess }) => `${name}${guessed(guess)}`).join(', ');
    throw new UnknownKindFilterError(
      `--reject-kinds ${names}: ${refused.length === 1 ? 'no kind' : 'no kinds'} that Kubernetes, a CRD or the config defines, nor a document's, so the check would reject nothing; give a kind (Secret), apiVersion/kind (v1/Secret), a resource name (secrets, deploy) or a cosi type, and a CRD's kind with its CRD (--definitions)`,
    );
  }
  return unknown(skipKinds).map(({ name, guess }) =>
    createFinding({
      code: 'unknown-kind-filter',
      message: `--skip-kinds ${name} names no kind this run knows and matches no document, so it skips nothing${guessed(guess)}: give a kind (Secret), apiVersion/kind (v1/Secret), a resource name (secrets, deploy) or a cosi type`,
      file: '',
      line: 0,
      col: 0,
      pointer: '',
    }),
  );
}

/** The group of an apiVersion (`apps/v1` -> `apps`; the core group, `v1`, is ``). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}
