/**
 * The built CLI (`bin/cosi.js`, its code one CommonJS script run in a worker) evaluates CEL rules
 * as the library does. The script ran in sloppy mode once ("use strict" came after a banner
 * line, where it is no directive): a CEL function called on a string got a String object as
 * `this`, and every rule calling one (`self.name.startsWith('x')`) was a cel-evaluation-error in
 * `cosi check`, though the in-process tests, running the strict sources, passed. A real process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCosi } from '../support/cosi-process.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: listeners.example.org }
spec:
  group: example.org
  names: { kind: Listener, plural: listeners }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - rule: "!self.host.startsWith('internal.') && self.host.endsWith('.org')"
                  message: host must be public and end in .org
                - rule: "self.protocol in ['TCP', 'UDP'] ? !has(self.tls) : true"
                  message: no tls for TCP or UDP
                - rule: "self.host.split('.').size() >= 2 && self.host.contains('.')"
                  message: a dotted host
              properties:
                host: { type: string }
                protocol: { type: string }
                tls: { type: boolean }
`;

const listener = (host: string, extra = '') =>
  `apiVersion: example.org/v1\nkind: Listener\nmetadata: { name: l }\nspec:\n  host: ${host}\n  protocol: TCP\n${extra}`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-built-cel-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the built CLI on CEL rules that call string functions', () => {
  it('passes a resource the rules accept', async () => {
    await writeFile(path.join(dir, 'all.yaml'), `${CRD}---\n${listener('shop.example.org')}`);
    const r = await runCosi(['check', '.'], dir);
    expect(r.stdout).not.toContain('cel-evaluation-error');
    expect(r.stdout).toContain('3 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('fails one they refuse with their messages, not with an evaluation error', async () => {
    await writeFile(
      path.join(dir, 'all.yaml'),
      `${CRD}---\n${listener('internal.example.com', '  tls: true\n')}`,
    );
    const r = await runCosi(['check', '.'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('cel-evaluation-error');
    expect(r.stdout.match(/error\[cel-violation\]: [^(]+/g)).toEqual([
      'error[cel-violation]: Invalid value: host must be public and end in .org ',
      'error[cel-violation]: Invalid value: no tls for TCP or UDP ',
    ]);
  });
});
