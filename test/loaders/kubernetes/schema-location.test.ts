import { describe, expect, it } from 'vitest';
import {
  parseSchemaLocations,
  SchemaLocationError,
  type SchemaTarget,
} from '../../../src/loaders/kubernetes/schema-location.js';

const target = (apiVersion: string, kind: string, strict = false): SchemaTarget => ({
  apiVersion,
  kind,
  release: '1.30',
  strict,
});

const pathOf = (location: string, t: SchemaTarget): string => {
  const [parsed] = parseSchemaLocations([location]);
  if (parsed === undefined) throw new Error('no location');
  return parsed.pathOf(t);
};

describe("schema locations, as kubeconform's -schema-location names them", () => {
  it("fills kubeconform's fields: the group, the kind in lower case, the version", () => {
    const catalog = 'crds/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json';
    expect(pathOf(catalog, target('cert-manager.io/v1', 'ClusterIssuer'))).toBe(
      'crds/cert-manager.io/clusterissuer_v1.json',
    );
    // kubeconform's quirk, kept: the core group's Group is its version.
    expect(pathOf(catalog, target('v1', 'ConfigMap'))).toBe('crds/v1/configmap_v1.json');
  });

  it('fills KindSuffix, StrictSuffix and the Kubernetes version, with or without spaces', () => {
    const location =
      's/{{ .NormalizedKubernetesVersion }}{{.StrictSuffix}}/{{ .ResourceKind }}{{- .KindSuffix -}}.json';
    expect(pathOf(location, target('cert-manager.io/v1', 'Certificate', true))).toBe(
      's/v1.30.0-strict/certificate-cert-manager-v1.json',
    );
    expect(pathOf(location, target('v1', 'Service'))).toBe('s/v1.30.0/service-v1.json');
  });

  it("reads a path that does not end in json as kubeconform's directory layout", () => {
    expect(pathOf('vendor/schemas/', target('apps/v1', 'Deployment'))).toBe(
      'vendor/schemas/v1.30.0-standalone/deployment-apps-v1.json',
    );
  });

  it("takes default (kubeconform's built-in schemas) and needs nothing for it", () => {
    expect(parseSchemaLocations(['default'])).toEqual([]);
    expect(parseSchemaLocations(['default', 'a.json']).map((l) => l.source)).toEqual(['a.json']);
  });

  it("takes an http(s) URL template, as kubeconform's, its fields' values percent-encoded", () => {
    const [catalog] = parseSchemaLocations([
      'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json',
    ]);
    expect(catalog?.remote).toBe(true);
    expect(catalog?.pathOf(target('cert-manager.io/v1', 'Certificate'))).toBe(
      'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/cert-manager.io/certificate_v1.json',
    );
    // A manifest's kind stays in its path segment.
    expect(catalog?.pathOf(target('x.io/v1', 'A/../../B?c#d'))).toBe(
      'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/x.io/a%2F..%2F..%2Fb%3Fc%23d_v1.json',
    );
    expect(
      parseSchemaLocations(['HTTP://mirror.example/schemas/'])[0]?.pathOf(
        target('apps/v1', 'Deployment'),
      ),
    ).toBe('HTTP://mirror.example/schemas/v1.30.0-standalone/deployment-apps-v1.json');
    expect(parseSchemaLocations(['vendor/{{.ResourceKind}}.json'])[0]?.remote).toBe(false);
  });

  it('refuses other schemes, and a URL that is not one', () => {
    expect(() => parseSchemaLocations(['ftp://example.org/{{.ResourceKind}}.json'])).toThrow(
      /ftp:\/\/ is not a location cosi reads: give a path, or an http:\/\/ or https:\/\/ URL/,
    );
    expect(() => parseSchemaLocations(['file:///schemas/{{.ResourceKind}}.json'])).toThrow(
      SchemaLocationError,
    );
    expect(() => parseSchemaLocations(['https://exa mple.org/{{.ResourceKind}}.json'])).toThrow(
      /not a URL/,
    );
  });

  it('refuses a field kubeconform does not have, and an unclosed action, naming the fields', () => {
    expect(() => parseSchemaLocations(['s/{{.Kind}}.json'])).toThrow(SchemaLocationError);
    expect(() => parseSchemaLocations(['s/{{.Kind}}.json'])).toThrow(
      /\{\{\.Kind\}\} is not a field of a schema location: use \{\{ \.NormalizedKubernetesVersion \}\}/,
    );
    expect(() => parseSchemaLocations(['s/{{.Group/x.json'])).toThrow(/never closed/);
    expect(() => parseSchemaLocations(['s/{{ if .Group }}x{{ end }}.json'])).toThrow(
      SchemaLocationError,
    );
  });
});
