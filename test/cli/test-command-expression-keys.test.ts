/**
 * `cosi test` evaluates chainsaw's `(expression)` keys in an expected document, as kro's e2e
 * assert files write them (instance-assert.yaml: `(conditions[?type == 'Ready'])`); before, an
 * assert file ported as it is failed on every such key. A key outside the subset cosi evaluates
 * makes the scenario one that cannot run, at the document that has it: never a silent pass.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryTree } from '../support/temporary-directory.js';
import { REPO, cli } from './run-cli.js';

const MANIFESTS = `manifests: ${path.join(REPO, 'fixtures/kro-webapp')}\n`;

// kro writes an instance's conditions: InstanceManaged, GraphResolved, ResourcesReady, Ready.
const READY_ASSERT = `apiVersion: kro.run/v1alpha1
kind: WebApp
metadata:
  name: shop
status:
  (conditions[?type == 'Ready']):
    - status: 'True'
      observedGeneration: 1
  (length(conditions)): 4
`;

describe('cosi test: chainsaw expression keys', () => {
  it("matches an assert file's (conditions[?type == 'Ready']) against the condition it selects", async () => {
    const dir = await temporaryTree('cosi-expr-', {
      'instance-assert.yaml': READY_ASSERT,
      'ready.cosi-test.yaml': `${MANIFESTS}steps:\n  - expect: instance-assert.yaml\n  - expect:\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata: { name: shop }\n      spec:\n        (replicas >= \`1\` && replicas < \`3\`): true\n        (template.spec.containers[*].name): [web]\n`,
    });
    const { code, stdout } = await cli(['test', dir], { cwd: dir });
    expect(stdout).toBe('scenarios: 1 passed, 0 failed (steps: 2 passed, 0 failed)\n');
    expect(code).toBe(0);
  }, 60_000);

  it('fails a key whose selection differs, with what it selected in the diff', async () => {
    const dir = await temporaryTree('cosi-expr-', {
      'instance-assert.yaml': READY_ASSERT.replace("status: 'True'", "status: 'False'"),
      'ready.cosi-test.yaml': `${MANIFESTS}steps:\n  - expect: instance-assert.yaml\n`,
    });
    const { code, stdout } = await cli(['test', dir], { cwd: dir });
    expect(stdout).toContain(
      'instance-assert.yaml:1:1: error[unexpected-state]: WebApps.kro.run(default/shop) differs from the expected document (in the expect step at ready.cosi-test.yaml:3:5)\n',
    );
    expect(stdout).toContain(`-    - status: "False"\n    +    - status: "True"`);
    expect(code).toBe(1);
  }, 60_000);

  it('makes a key it does not evaluate a scenario that cannot run, at its document', async () => {
    const dir = await temporaryTree('cosi-expr-', {
      'instance-assert.yaml': READY_ASSERT.replace(
        '(length(conditions))',
        "(concat('-', conditions[*].type))",
      ),
      'ready.cosi-test.yaml': `${MANIFESTS}steps:\n  - expect: instance-assert.yaml\n`,
    });
    const { code, stdout } = await cli(['test', dir], { cwd: dir });
    expect(stdout).toContain(
      `instance-assert.yaml:1:1: error[invalid-scenario]: the step cannot be carried out: the chainsaw expression key "(concat('-', conditions[*].type))" is not supported: the function concat() at column 2`,
    );
    expect(code).toBe(2);
  }, 60_000);
});
