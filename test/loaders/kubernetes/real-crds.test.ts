import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests, type ManifestFile } from '../../../src/loaders/load-manifests.js';

/** CRDs and examples of other projects, as they ship them (fixtures/real-crds/README.md). */
const ROOT = fileURLToPath(new URL('../../../fixtures/real-crds/', import.meta.url));

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return yamlFiles(file);
      return name.endsWith('.yaml') ? [file] : [];
    });

const read = (file: string): ManifestFile => ({
  path: path.relative(ROOT, file),
  text: readFileSync(file, 'utf8'),
});

const errors = (findings: readonly Finding[]) =>
  findings
    .filter((f) => f.severity === 'error' && f.code !== 'empty-input')
    .map((f) => `${f.file}:${f.line}:${f.col}: ${f.code}[${f.rule ?? ''}] ${f.message}`);

describe('real CRDs nobody here wrote', () => {
  it('cert-manager: every CRD loads with no error', () => {
    const { definitions, findings } = loadManifests(
      yamlFiles(path.join(ROOT, 'cert-manager/crds')).map(read),
    );
    expect(errors(findings)).toEqual([]);
    expect(definitions.map((d) => d.id).sort()).toEqual([
      'certificaterequests.cert-manager.io',
      'certificates.cert-manager.io',
      'challenges.acme.cert-manager.io',
      'clusterissuers.cert-manager.io',
      'issuers.cert-manager.io',
      'orders.acme.cert-manager.io',
    ]);
  }, 60_000);

  it('Gateway API (standard channel): every CRD and every example loads with no error', () => {
    const crds = loadManifests(yamlFiles(path.join(ROOT, 'gateway-api/crds')).map(read));
    // TLSRoute's rules call isIP, of Kubernetes' CEL ip library.
    expect(errors(crds.findings)).toEqual([]);
    expect(new Set(crds.definitions.map((d) => d.kubernetes?.kind))).toEqual(
      new Set([
        'BackendTLSPolicy',
        'GatewayClass',
        'Gateway',
        'GRPCRoute',
        'HTTPRoute',
        'ListenerSet',
        'ReferenceGrant',
        'TCPRoute',
        'UDPRoute',
        'TLSRoute',
      ]),
    );
    // Each example on its own (several reuse one name), with the CRDs as given definitions; the
    // examples that make their namespaces, Services and Deployments use the built-in kinds.
    const definitions = crds.definitions;
    let resources = 0;
    for (const file of yamlFiles(path.join(ROOT, 'gateway-api/examples'))) {
      const result = loadManifests([read(file)], { definitions });
      expect(errors(result.findings)).toEqual([]);
      resources += result.resources.length;
    }
    expect(resources).toBeGreaterThan(100);
  }, 60_000);

  it("Traefik: every CRD loads (int64's bound in IngressRoute's priority), and its examples but one of theirs", () => {
    const dir = path.join(ROOT, 'traefik');
    const { definitions, resources, findings } = loadManifests(
      ['kubernetes-crd-definition-v1.yml', 'kubernetes-crd-resource.yml'].map((name) =>
        read(path.join(dir, name)),
      ),
    );
    expect(definitions.map((d) => d.kubernetes?.kind).sort()).toEqual([
      'IngressRoute',
      'IngressRouteTCP',
      'IngressRouteUDP',
      'Middleware',
      'MiddlewareTCP',
      'ServersTransport',
      'ServersTransportTCP',
      'TLSOption',
      'TLSStore',
      'TraefikService',
    ]);
    expect(
      resources.filter((r) => r.resource.metadata.type === 'IngressRoutes.traefik.io'),
    ).not.toHaveLength(0);
    // Upstream's example puts ServersTransportTCP's TLS fields at the top of its spec; the
    // schema has them under spec.tls, and the API server would drop them.
    expect(
      findings
        .filter((f) => f.severity === 'error')
        .map((f) => [f.file, f.line, f.rule, f.message.match(/"(\w+)"/)?.[1]]),
    ).toEqual(
      (
        [
          [234, 'serverName'],
          [235, 'insecureSkipVerify'],
          [236, 'rootCAsSecrets'],
          [239, 'certificatesSecrets'],
          [242, 'peerCertURI'],
        ] as const
      ).map(([line, field]) => [
        'traefik/kubernetes-crd-resource.yml',
        line,
        'unknown-field',
        field,
      ]),
    );
  }, 60_000);
});
