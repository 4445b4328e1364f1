/**
 * A sensitive type's values in a golden tree: sealed, never in clear, yet a change of one fails
 * `cosi check --expect` (keyed fingerprints, `COSI_GOLDEN_KEY`); what a check cannot compare it
 * says, never passing it silently.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

let dir: string;
const KEY = { COSI_GOLDEN_KEY: 'ci-secret-of-the-team' };
const SECRET = 'hunter2';

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-sensitive-goldens-'));
  await cp(path.join(REPO, 'fixtures/cli/sensitive'), path.join(dir, 'manifests'), {
    recursive: true,
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const check = (env: Record<string, string>, ...more: string[]) =>
  cli(['check', '-f', 'manifests', '--expect', 'expected', ...more], { cwd: dir, env });
const golden = () => readFile(path.join(dir, 'expected', 'Secrets.example.org.yaml'), 'utf8');
/** The secret's value changed in the manifests, as a controller bug or a wrong edit would. */
const changeSecret = async (to: string) => {
  const file = path.join(dir, 'manifests', 'secrets.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace(`key: ${SECRET}`, `key: ${to}`));
};

describe('cosi check --expect on a sensitive type', { timeout: 30_000 }, () => {
  it('records a keyed fingerprint, never the value or its plain hash, and fails when it changes', async () => {
    const keyed = await check(KEY, '--update');
    expect(keyed.code).toBe(0);
    expect(keyed.stderr).not.toContain('recorded as ***');
    const text = await golden();
    expect(text).toMatch(/\n {2}key: hmac-sha256:[0-9a-f]{32}\n/);
    expect(text).not.toContain(SECRET);
    const plain = createHash('sha256').update(SECRET).digest('hex');
    expect(text).not.toContain(plain.slice(0, 32));
    expect((await check(KEY)).code).toBe(0);

    await changeSecret('hunter3');
    const changed = await check(KEY);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain(
      'error[unexpected-state]: Secrets.example.org(default/db-password) differs from the expectation (sensitive, compared by fingerprints keyed with COSI_GOLDEN_KEY: key changed',
    );
    // Which field changed, as kubectl diff says it of a Secret: never to what.
    expect(changed.stdout).toContain('-  key: "*** (before)"\n    +  key: "*** (after)"');
    expect(changed.stdout).not.toContain('hunter');
  });

  it('binds a fingerprint to its key: another key differs, equal values of two resources differ', async () => {
    await writeFile(
      path.join(dir, 'manifests', 'more.yaml'),
      `metadata: { type: secret, id: other }\nspec: { key: ${SECRET} }\n`,
    );
    expect((await check(KEY, '--update')).code).toBe(0);
    const prints = [...(await golden()).matchAll(/hmac-sha256:[0-9a-f]{32}/g)].map((m) => m[0]);
    expect(prints).toHaveLength(2);
    expect(prints[0]).not.toBe(prints[1]);
    const otherKey = await check({ COSI_GOLDEN_KEY: 'another-key' });
    expect(otherKey.code).toBe(1);
    expect(otherKey.stdout).toContain('or the key is not the one they were recorded with');
  });

  it('without a key, records *** and says on every check that the values were not compared', async () => {
    const recorded = await check({}, '--update');
    expect(recorded.code).toBe(0);
    // Said when it is recorded, not only at the next check.
    expect(recorded.stderr).toContain(
      `cosi: ${path.join('expected', 'Secrets.example.org.yaml')}: sensitive values recorded as *** (COSI_GOLDEN_KEY is not set): a check cannot compare them`,
    );
    expect(await golden()).toContain('\n  key: "***"\n');
    await changeSecret('hunter3');
    const lenient = await check({});
    expect(lenient.stdout).toContain(
      'warning[sensitive-not-compared]: Secrets.example.org(default/db-password): its sensitive values (key) were not compared',
    );
    expect(lenient.code).toBe(0);
    // A strict gate fails on what it could not compare.
    expect((await check({}, '--strict')).code).toBe(1);
  });

  it('fails a golden of fingerprints checked without the key: it cannot verify them', async () => {
    expect((await check(KEY, '--update')).code).toBe(0);
    const keyless = await check({});
    expect(keyless.code).toBe(1);
    expect(keyless.stdout).toContain(
      'error[sensitive-not-compared]: Secrets.example.org(default/db-password): the golden holds keyed fingerprints of its sensitive values (key), and COSI_GOLDEN_KEY is not set',
    );
  });

  it('says a golden recorded without the spec (before it was sealed) compares no value', async () => {
    expect((await check(KEY, '--update')).code).toBe(0);
    const file = path.join(dir, 'expected', 'Secrets.example.org.yaml');
    await writeFile(file, (await golden()).replace(/spec:\n {2}key: .*\n/, ''));
    const old = await check(KEY);
    expect(old.stdout).toContain(
      'warning[sensitive-not-compared]: Secrets.example.org(default/db-password): its sensitive values (spec) were not compared',
    );
    expect(old.code).toBe(0);
  });
});
