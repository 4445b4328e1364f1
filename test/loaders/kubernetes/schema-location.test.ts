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

  it('refuses a URL, saying how to vendor the schemas instead', () => {
    expect(() =>
      parseSchemaLocations([
        'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json',
      ]),
    ).toThrow(/not the network: download them once \(git clone/);
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
