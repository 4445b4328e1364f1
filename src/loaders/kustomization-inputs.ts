/**
 * kustomize's files: a kustomization by its name (and by its content, when it holds an object of
 * another kind), and the files it names that kustomize reads as something other than a resource
 * (patches, configurations, generator inputs), live or commented out.
 */
import * as path from 'node:path';
import { parse, YAMLParseError } from 'yaml';
import { createFinding, type Finding } from './finding.js';
import { objectHeadOf } from './object-head.js';
import { isRecord } from '../engine/resource/plain-data.js';

/** What kustomize reads as a kustomization, by its file name. */
const KUSTOMIZATION_FILES = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

/**
 * Whether a file of this name is a kustomization (kustomize reads no other name), unless it holds
 * an object of another kind (see {@link isObjectNotKustomization}).
 */
export const isKustomizationFile = (name: string): boolean => KUSTOMIZATION_FILES.has(name);

/** The kinds a kustomization file holds: a kustomization, or a component. */
const KUSTOMIZATION_KINDS = new Set(['Kustomization', 'Component']);

/**
 * Whether a file named as a kustomization holds a Kubernetes object of another kind (a
 * `ConfigMap`): no kustomization, since kustomize refuses it, and so checked as a manifest, as
 * nothing else would check it. One with no `apiVersion` and `kind` (kustomize needs neither) is a
 * kustomization.
 */
export function isObjectNotKustomization(text: string): boolean {
  const head = objectHeadOf(text);
  return head !== undefined && !KUSTOMIZATION_KINDS.has(head.kind);
}

/** Keys of a kustomization whose entries are a path, or an object with a `path`. */
const PATH_KEYS = ['patches', 'patchesStrategicMerge', 'patchesJson6902', 'replacements'];
/** Keys of a kustomization whose entries are paths of configurations. */
const CONFIGURATION_KEYS = ['configurations', 'transformers', 'generators', 'validators'];
/** Keys of a kustomization whose entries are generators with `files`, `envs` and `env`. */
const GENERATOR_KEYS = ['configMapGenerator', 'secretGenerator'];
/** The keys of a kustomization that name files other than resources. */
const INPUT_KEYS = [...PATH_KEYS, ...CONFIGURATION_KEYS, ...GENERATOR_KEYS, 'openapi'];

/** Whether a text may have one of {@link INPUT_KEYS} (as a key, at any indentation or quoted). */
const NAMES_INPUTS = new RegExp(`(?:^|[\\s{,])["']?(?:${INPUT_KEYS.join('|')})["']?\\s*:`, 'm');

/** Whether a text may have a `resources` key (as a key, at any indentation or quoted). */
const NAMES_RESOURCES = /(?:^|[\s{,])["']?resources["']?\s*:/m;

/** What {@link kustomizationInputs} found in a kustomization. */
export interface KustomizationInputs {
  /** Absolute paths of the files it names that are not resources (patches, configurations...). */
  readonly files: readonly string[];
  /**
   * Absolute paths of its `resources` entries (files or directories): what it renders as
   * resources, which no kustomization's patch line, live or commented out, sets aside.
   */
  readonly resources: readonly string[];
  /**
   * Absolute paths of the patches it names in comments only (`#- path: patches/webhook.yaml`),
   * as kubebuilder's scaffold leaves those a feature would enable.
   */
  readonly commented: readonly string[];
  /** A YAML error that kept it from being read (its inputs are then unknown). */
  readonly finding?: Finding;
}

/**
 * The files a kustomization names that kustomize reads as something other than a resource:
 * patches (`patches`, `patchesStrategicMerge`, `patchesJson6902`), `replacements`,
 * `configurations`, transformer, generator and validator configurations, `openapi`, and the
 * files of config map and secret generators. `resources`, `crds` and `components` are not
 * among them: those are resources, or directories with kustomizations of their own. `file` is
 * as shown (for a finding), `absolute` where it is.
 */
export function kustomizationInputs(
  text: string,
  file: string,
  absolute: string,
): KustomizationInputs {
  const dir = path.dirname(absolute);
  const commented = commentedPatches(text).map((name) => path.resolve(dir, name));
  const namesInputs = NAMES_INPUTS.test(text);
  // A kustomization that names no resources and nothing but resources is not parsed.
  if (!namesInputs && !NAMES_RESOURCES.test(text)) return { files: [], resources: [], commented };
  let document: unknown;
  try {
    // No custom tags, the default bound on aliases: what is read here is only ever paths.
    document = parse(text, { uniqueKeys: false, maxAliasCount: 100, logLevel: 'error' });
  } catch (error) {
    if (!(error instanceof YAMLParseError)) throw error;
    // One that lists resources only is kustomize's to report, as before it was read for them.
    if (!namesInputs) return { files: [], resources: [], commented };
    const [line, col] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [0, 0];
    const message = `${file} is not valid YAML: ${error.message.split('\n')[0] ?? ''}`;
    return {
      files: [],
      resources: [],
      commented,
      finding: createFinding({ code: 'yaml-syntax', message, file, line, col, pointer: '' }),
    };
  }
  if (!isRecord(document)) return { files: [], resources: [], commented };
  const resources: string[] = [];
  forEach(document.resources, (entry) => {
    if (typeof entry === 'string' && entry !== '' && !entry.includes('\n')) {
      resources.push(path.resolve(dir, entry));
    }
  });
  if (!namesInputs) return { files: [], resources, commented };
  const names: string[] = [];
  const addString = (value: unknown): void => {
    // An entry may be inline YAML rather than a path: a path is one line.
    if (typeof value === 'string' && value !== '' && !value.includes('\n')) names.push(value);
  };
  const addPathOf = (value: unknown): void => {
    if (typeof value === 'string') addString(value);
    else if (isRecord(value)) addString(value.path);
  };
  for (const key of PATH_KEYS) {
    forEach(document[key], addPathOf);
  }
  for (const key of CONFIGURATION_KEYS) {
    forEach(document[key], addString);
  }
  addPathOf(document.openapi);
  for (const key of GENERATOR_KEYS) {
    forEach(document[key], (generator) => {
      if (!isRecord(generator)) return;
      // `files` entries may name their key: `key=path`.
      forEach(generator.files, (entry) =>
        addString(typeof entry === 'string' ? entry.slice(entry.indexOf('=') + 1) : entry),
      );
      forEach(generator.envs, addString);
      addString(generator.env);
    });
  }
  return { files: names.map((name) => path.resolve(dir, name)), resources, commented };
}

/**
 * A top-level key, live (`patches:`) or commented out alone on its line, `#` and at most one
 * space before it (`#patchesStrategicMerge:`): `#  target:` is a commented entry's.
 */
const SECTION_KEY = /^(?:#+ ?([A-Za-z]\w*)[ \t]*:[ \t]*$|([A-Za-z]\w*|"[^"]*"|'[^']*')[ \t]*:)/;

/**
 * A list entry commented out, naming a file (`#- patch.yaml`, `# - path: p.yaml`), or the
 * `path` of a commented entry's later line (`#  path: p.yaml`).
 */
const COMMENTED_ENTRY =
  /^[ \t]*#+[ \t]*(?:-[ \t]+)?(?:path[ \t]*:[ \t]*)?(["']?)([^\s"'#]+\.(?:ya?ml|json))\1[ \t]*(?:#.*)?$/i;

/**
 * The files a kustomization's comments name as patches: entries commented out below a patch key
 * (`patches`, `patchesStrategicMerge`, `patchesJson6902`), itself live or commented out.
 * kubebuilder's scaffold leaves the patches of the features one enables by hand so
 * (`#- path: patches/webhook_in_clusters.yaml`), and keeps their files beside it: partial
 * objects all the same. A commented-out resource is none of these.
 */
function commentedPatches(text: string): string[] {
  if (!text.includes('#')) return [];
  const names: string[] = [];
  let section: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const key = SECTION_KEY.exec(line);
    if (key) {
      section = (key[1] ?? key[2] ?? '').replace(/^["']|["']$/g, '');
      continue;
    }
    if (section === undefined || !PATCH_KEYS.has(section)) continue;
    const entry = COMMENTED_ENTRY.exec(line);
    if (entry?.[2] !== undefined) names.push(entry[2]);
  }
  return names;
}

/** The keys of a kustomization whose entries are patches. */
const PATCH_KEYS: ReadonlySet<string> = new Set([
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
]);

function forEach(list: unknown, visit: (value: unknown) => void): void {
  if (Array.isArray(list)) for (const value of list) visit(value);
}
