/**
 * `cosi check --strict --allow-warning CODE`: every warning fails but those of the codes named,
 * which are still shown (as a linter's per-rule switch: a CRD too large for client-side apply,
 * applied server-side on purpose, need not fail a strict gate).
 */
import { describe, expect, it } from 'vitest';
import { temporaryTree } from '../support/temporary-directory.js';
import { cli } from './run-cli.js';

/** A document with two warnings of two codes: a YAML 1.1 boolean and a status a CRD drops. */
const WIDGETS = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.org }
spec:
  group: example.org
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      subresources: { status: {} }
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { enabled: { type: boolean } } }
            status: { type: object, properties: { ready: { type: boolean } } }
---
apiVersion: example.org/v1
kind: Widget
metadata: { name: w, namespace: default }
spec: { enabled: yes }
status: { ready: true }
`;

const check = async (...flags: string[]) => {
  const dir = await temporaryTree('cosi-allow-warning-', { 'widgets.yaml': WIDGETS });
  return cli(['check', dir, ...flags]);
};

describe('check --allow-warning', () => {
  it('fails --strict on both warnings, on neither when both are allowed', async () => {
    const strict = await check('--strict', '-o', 'json');
    expect(strict.code).toBe(1);
    const codes = (JSON.parse(strict.stdout) as { cases: { findings: { code: string }[] }[] }).cases
      .flatMap((c) => c.findings.map((f) => f.code))
      .sort();
    expect(codes).toEqual(['ignored-status', 'yaml11-boolean']);
    const both = await check('--strict', '--allow-warning', 'yaml11-boolean,ignored-status');
    expect(both.code).toBe(0);
    // Allowed, not hidden.
    expect(both.stdout).toContain('warning[yaml11-boolean]');
    expect(both.stdout).toContain('warning[ignored-status]');
  });

  it('still fails on a warning it does not name, repeated or not', async () => {
    const one = await check('--strict', '--allow-warning', 'ignored-status', '-o', 'json');
    expect(one.code).toBe(1);
    const report = JSON.parse(one.stdout) as {
      allowedWarnings: string[];
      cases: { failed: boolean; findings: { code: string }[] }[];
    };
    expect(report.allowedWarnings).toEqual(['ignored-status']);
    expect(
      report.cases.filter((c) => c.failed).flatMap((c) => c.findings.map((f) => f.code)),
    ).toContain('yaml11-boolean');
    const repeated = await check(
      '--strict',
      '--allow-warning',
      'ignored-status',
      '--allow-warning',
      'yaml11-boolean',
    );
    expect(repeated.code).toBe(0);
  });

  it('refuses a code no finding has, an error code and a use without --strict (exit 2)', async () => {
    const misspelt = await check('--strict', '--allow-warning', 'yaml11-bolean');
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain('(did you mean yaml11-boolean?)');
    const error = await check('--strict', '--allow-warning', 'schema-violation');
    expect(error.code).toBe(2);
    expect(error.stderr).toContain('schema-violation is an error, which always fails');
    const loose = await check('--allow-warning', 'yaml11-boolean');
    expect(loose.code).toBe(2);
    expect(loose.stderr).toContain('--allow-warning needs --strict');
  });
});
