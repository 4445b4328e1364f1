/**
 * `--schema-location`: where JSON Schemas of Kubernetes kinds are on disk, named as kubeconform's
 * `-schema-location` names them, so that a team's flags and vendored schemas (a checkout of
 * datreeio/CRDs-catalog, the output of `openapi2jsonschema.py`) work as they are:
 *
 * - a path template with kubeconform's fields, `{{ .Group }}`, `{{ .ResourceKind }}` (the kind in
 *   lower case), `{{ .ResourceAPIVersion }}` (the version), `{{ .KindSuffix }}`
 *   (`-cert-manager-v1`), `{{ .StrictSuffix }}` (`-strict` under `--strict`) and
 *   `{{ .NormalizedKubernetesVersion }}` (`v1.36.0`): `schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`;
 * - a path that does not end in `json` is a directory laid out as kubeconform's
 *   kubernetes-json-schema (`DIR/v1.36.0-standalone/certificate-cert-manager-v1.json`), as
 *   kubeconform reads it;
 * - `default` (kubeconform's built-in Kubernetes schemas) is taken and needs nothing: cosi has the
 *   built-in kinds of every release it knows;
 * - an `http://` or `https://` location is a URL template
 *   (`https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`):
 *   its fields' values are percent-encoded, so that a manifest's kind stays in its path segment.
 *
 * Pure: only the text of a path or URL is made here; `json-schema-kinds.ts` reads the files
 * through its reader (`src/app/schema-downloads.ts` for URLs).
 */

/** kubeconform's layout of a directory given without a file template. */
const DIRECTORY_LAYOUT =
  '/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json';

/** The fields a template may use, as kubeconform names them. */
const FIELDS = [
  'NormalizedKubernetesVersion',
  'StrictSuffix',
  'ResourceKind',
  'ResourceAPIVersion',
  'Group',
  'KindSuffix',
] as const;

type Field = (typeof FIELDS)[number];

/** What a location's path is made for: a document's apiVersion and kind, and the run's settings. */
export interface SchemaTarget {
  readonly apiVersion: string;
  readonly kind: string;
  /** The run's Kubernetes release (`1.36`). */
  readonly release: string;
  /** `--strict`: `{{ .StrictSuffix }}` is `-strict`. */
  readonly strict: boolean;
}

/** A location of JSON Schemas: the path of a kind's schema there. */
export interface SchemaLocation {
  /** As given on the command line. */
  readonly source: string;
  /** An `http(s)://` template: its paths are URLs. */
  readonly remote: boolean;
  /** The path of the schema of `target` (relative as given, or absolute). */
  pathOf(target: SchemaTarget): string;
}

/** A `--schema-location` cosi cannot use, with the sentence that says why. */
export class SchemaLocationError extends Error {
  readonly code = 'invalid-schema-location';
  constructor(
    readonly location: string,
    message: string,
  ) {
    super(`--schema-location ${JSON.stringify(location)}: ${message}`);
    this.name = 'SchemaLocationError';
  }
}

/**
 * The locations of the given `--schema-location` values, in order, `default` left out (cosi's
 * built-in kinds are always on).
 *
 * @throws SchemaLocationError for a template with anything but kubeconform's fields, or a URL
 * of another scheme than http and https.
 */
export function parseSchemaLocations(given: readonly string[]): SchemaLocation[] {
  return given.filter((g) => g !== 'default').map(parseSchemaLocation);
}

function parseSchemaLocation(given: string): SchemaLocation {
  const remote = /^https?:\/\//i.test(given);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(given)?.[1];
  if (!remote && scheme !== undefined) {
    throw new SchemaLocationError(
      given,
      `${scheme}:// is not a location cosi reads: give a path, or an http:// or https:// URL`,
    );
  }
  if (given.trim() === '') throw new SchemaLocationError(given, 'the location is empty');
  if (remote && !URL.canParse(given.replaceAll(/\{\{[^}]*\}\}/g, 'x'))) {
    throw new SchemaLocationError(given, 'not a URL');
  }
  const template = given.endsWith('json')
    ? given
    : `${given.replace(/\/+$/, '')}${DIRECTORY_LAYOUT}`;
  const parts = parseTemplate(given, template);
  return {
    source: given,
    remote,
    pathOf: (target) => {
      const values = fieldValues(target);
      return parts
        .map((part) => {
          if (typeof part === 'string') return part;
          const value = values[part.field];
          return remote ? encodeURIComponent(value) : value;
        })
        .join('');
    },
  };
}

/** The template as text and fields, `{{ .Field }}` with optional spaces and trim markers. */
function parseTemplate(given: string, template: string): (string | { field: Field })[] {
  const parts: (string | { field: Field })[] = [];
  let at = 0;
  for (;;) {
    const open = template.indexOf('{{', at);
    if (open === -1) {
      parts.push(template.slice(at));
      return parts;
    }
    const close = template.indexOf('}}', open + 2);
    if (close === -1) throw new SchemaLocationError(given, `"{{" at ${open + 1} is never closed`);
    parts.push(template.slice(at, open));
    const action = template.slice(open + 2, close);
    const name = /^-?\s*\.([A-Za-z]+)\s*-?$/.exec(action)?.[1];
    const field = FIELDS.find((f) => f === name);
    if (field === undefined) {
      throw new SchemaLocationError(
        given,
        `{{${action}}} is not a field of a schema location: use ${FIELDS.map((f) => `{{ .${f} }}`).join(', ')}`,
      );
    }
    parts.push({ field });
    at = close + 2;
  }
}

/** The fields' values for a target, as kubeconform's `schemaPath` makes them. */
function fieldValues(target: SchemaTarget): Record<Field, string> {
  const [first = '', version] = target.apiVersion.split('/');
  const group = first.split('.')[0] ?? '';
  return {
    NormalizedKubernetesVersion: `v${target.release}.0`,
    StrictSuffix: target.strict ? '-strict' : '',
    ResourceKind: target.kind.toLowerCase(),
    // `v1` for `apps/v1` and for the core group's `v1`; `Group` is `v1` there too, as in kubeconform.
    ResourceAPIVersion: version ?? first,
    Group: first,
    KindSuffix: `-${group.toLowerCase()}${version === undefined ? '' : `-${version.toLowerCase()}`}`,
  };
}
