import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

const run = promisify(execFile);
const REVISIONS = path.join(REPO, 'fixtures/cel/revisions');

/** The CEL findings of a check's text report: `file:line:col code`. */
function celFindings(stdout: string): string[] {
  return [...stdout.matchAll(/(\S+:\d+:\d+): error\[(cel-[a-z-]+)\]/g)].map(
    ([, at = '', code = '']) => `${at} ${code}`,
  );
}

describe('cosi check --previous', () => {
  it('checks transition rules against a directory holding the previous revision', async () => {
    const r = await cli([
      'check',
      '-f',
      'fixtures/cel/revisions/v2',
      '--previous',
      'fixtures/cel/revisions/v1',
    ]);
    expect(r.code).toBe(1);
    expect(celFindings(r.stdout)).toEqual([
      'fixtures/cel/revisions/v2/clusters.yaml:6:11 cel-violation',
      'fixtures/cel/revisions/v2/clusters.yaml:8:13 cel-violation',
      'fixtures/cel/revisions/v2/clusters.yaml:24:13 cel-violation',
    ]);
    expect(r.stdout).toContain('region is immutable');
  });

  it('skips transition rules without --previous: every resource is a create', async () => {
    const r = await cli(['check', '-f', 'fixtures/cel/revisions/v2']);
    expect(celFindings(r.stdout)).toEqual([
      'fixtures/cel/revisions/v2/clusters.yaml:24:13 cel-violation',
    ]);
  });

  describe('with a git revision', () => {
    let repo: string;
    const git = (...args: string[]) => run('git', args, { cwd: repo });

    beforeAll(async () => {
      repo = await mkdtemp(path.join(tmpdir(), 'cosi-previous-git-'));
      await git('init', '-q');
      await git('config', 'user.email', 'ci@example.org');
      await git('config', 'user.name', 'CI');
      await git('config', 'commit.gpgsign', 'false');
      await cp(path.join(REVISIONS, 'v1'), path.join(repo, 'manifests'), { recursive: true });
      await git('add', '-A');
      await git('commit', '-q', '-m', 'v1');
      await rm(path.join(repo, 'manifests'), { recursive: true });
      await cp(path.join(REVISIONS, 'v2'), path.join(repo, 'manifests'), { recursive: true });
      await git('add', '-A');
      await git('commit', '-q', '-m', 'v2');
    });

    afterAll(async () => {
      await rm(repo, { recursive: true, force: true });
    });

    it('reads the manifests at HEAD~1 with git and checks the edits as updates', async () => {
      const r = await cli(['check', '-f', 'manifests', '--previous', 'HEAD~1'], { cwd: repo });
      expect(r.code).toBe(1);
      expect(celFindings(r.stdout)).toEqual([
        'manifests/clusters.yaml:6:11 cel-violation',
        'manifests/clusters.yaml:8:13 cel-violation',
        'manifests/clusters.yaml:24:13 cel-violation',
      ]);
    });

    it('passes against the same revision: nothing changed, dev already existed', async () => {
      const r = await cli(['check', '-f', 'manifests', '--previous', 'HEAD'], { cwd: repo });
      expect(celFindings(r.stdout)).toEqual([]);
      expect(r.code).toBe(0);
    });

    it('works from a subdirectory of the repository', async () => {
      const r = await cli(['check', '-f', '.', '--previous', 'HEAD~1'], {
        cwd: path.join(repo, 'manifests'),
      });
      expect(celFindings(r.stdout)).toHaveLength(3);
    });

    it('refuses a revision that does not exist, as a usage error', async () => {
      const r = await cli(['check', '-f', 'manifests', '--previous', 'no-such-ref'], {
        cwd: repo,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('"no-such-ref" is neither a directory nor a revision');
    });
  });
});
