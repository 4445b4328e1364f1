/**
 * cosi/testing under jest, on the built package (`npm run build` first): the test files in jest/
 * register the matchers with `import 'cosi/testing/matchers'` as a user's tests would, and jest
 * runs them (as ES modules) in a child process.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const JEST = path.join(REPO, 'node_modules/jest/bin/jest.js');

function jest(file: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        '--experimental-vm-modules',
        JEST,
        '--ci',
        '--rootDir',
        path.join(import.meta.dirname, 'jest'),
        '--testMatch',
        `**/${file}`,
      ],
      { cwd: REPO, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
      },
    );
  });
}

describe('cosi/testing in jest', () => {
  it('registers toConverge and toHaveResource on jest’s expect, and they pass', async () => {
    const { code, output } = await jest('vm-network.jest.mjs');
    expect(output).toMatch(/Tests:\s+1 passed, 1 total/);
    expect(code).toBe(0);
  }, 70_000);

  it('fails a wrong expectation with the diff of the spec', async () => {
    const { code, output } = await jest('wrong-expectation.jest.mjs');
    expect(code).toBe(1);
    expect(output).toMatch(/Tests:\s+1 failed, 1 total/);
    expect(output).toContain('-bridge: br-alpine');
    expect(output).toContain('+bridge: br-debian');
  }, 70_000);
});
