import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A repository with six release notes (istio's), another tool's file and a typo in a group. */
async function repository(): Promise<string> {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-tool-kinds-'));
  await mkdir(path.join(dir, 'releasenotes', 'notes'), { recursive: true });
  for (let i = 0; i < 6; i++) {
    await writeFile(
      path.join(dir, 'releasenotes', 'notes', `${i}.yaml`),
      `apiVersion: release-notes/v2\nkind: ${i % 2 === 0 ? 'bug-fix' : 'feature'}\narea: traffic\nreleaseNotes: [fixed]\n`,
    );
  }
  await writeFile(
    path.join(dir, 'settings.yaml'),
    'apiVersion: mytool/v1\nkind: Settings\nlevel: 3\n',
  );
  await writeFile(
    path.join(dir, 'deploy.yaml'),
    'apiVersion: app/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {}\n',
  );
  return dir;
}

describe("another tool's files in a repository checked whole", () => {
  it('lists three of an apiVersion no Kubernetes API serves and says the rest in one note; other errors are all listed', async () => {
    const root = await repository();
    const r = await cli(['check', root, '--no-color']);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    const releaseNotes = lines.filter(
      (l) => l.includes('error[unknown-type]') && l.includes('release-notes/v2'),
    );
    expect(releaseNotes).toHaveLength(3);
    const notes = lines.filter((l) => l.startsWith('note[tool-kind]'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(
      `3 more documents of apiVersion release-notes/v2 (kinds bug-fix, feature; all in ${path.join(root, 'releasenotes', 'notes')}/) have the error above`,
    );
    expect(notes[0]).toContain('.cosiignore');
    // One file of another apiVersion, and a typo of a built-in group: listed as ever.
    expect(
      lines.some((l) => l.includes('settings.yaml') && l.includes('error[unknown-type]')),
    ).toBe(true);
    expect(lines.some((l) => l.includes('deploy.yaml') && l.includes('error[unknown-type]'))).toBe(
      true,
    );
    // Every document still fails: the summary and the machine formats count all of them.
    expect(r.stdout).toContain('8 invalid');
    const json = await cli(['check', root, '-o', 'json']);
    const listed = JSON.stringify(JSON.parse(json.stdout)).match(/release-notes\/v2/g) ?? [];
    expect(listed.length).toBeGreaterThanOrEqual(6);
  });
});
