/**
 * cosi/testing under node:test, on the built package (`npm run build` first): the test files in
 * node-test/ import 'cosi/testing' as a user's tests would, and run in a child process.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');

function nodeTest(file: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--test', '--test-reporter=tap', path.join(import.meta.dirname, 'node-test', file)],
      { cwd: REPO, timeout: 60_000 },
      (error, stdout) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout });
      },
    );
  });
}

describe('cosi/testing in node:test', () => {
  it('passes the vm-network tests', async () => {
    const { code, stdout } = await nodeTest('vm-network.node-test.mjs');
    expect(stdout).toContain('# pass 2');
    expect(stdout).toContain('# fail 0');
    expect(code).toBe(0);
  }, 70_000);

  it('fails a wrong expectation with the diff as its error', async () => {
    const { code, stdout } = await nodeTest('wrong-expectation.node-test.mjs');
    expect(code).toBe(1);
    expect(stdout).toContain("name: 'CosiAssertionError'");
    expect(stdout).toContain('-bridge: br-alpine');
    expect(stdout).toContain('+bridge: br-debian');
  }, 70_000);
});
