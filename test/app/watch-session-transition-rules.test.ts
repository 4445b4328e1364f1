import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchRound, WatchSession } from '../../src/app/watch-session.js';
import { startEditedWatch } from '../support/watch-edits.js';
import { REPO } from '../cli/run-cli.js';

let dir: string;
let session: WatchSession | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-cel-'));
  await cp(path.join(REPO, 'fixtures/cel/revisions/v1'), dir, { recursive: true });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

async function start() {
  const watched = await startEditedWatch({ files: ['.'], cwd: dir, stable: true });
  session = watched.session;
  return watched;
}

const cel = (round: WatchRound | undefined) =>
  round?.findings
    .filter((f) => f.code.startsWith('cel-'))
    .map((f) => `${f.file}:${f.line}:${f.col} ${f.message}`);

describe('cosi watch with CEL transition rules', () => {
  it('checks each round against the resources of the rounds before it', async () => {
    const { rounds, save } = await start();
    expect(cel(rounds[0])).toEqual([]);
    // prod's region is immutable: the edit is flagged as it is saved.
    const moved = await save('clusters.yaml', 'region: eu-west', 'region: us-west');
    expect(cel(moved)).toEqual(['clusters.yaml:5:11 region is immutable']);
    expect(moved.applied).toBe(false);
    // Refused, so the prior state is still eu-west: another region is flagged too...
    const again = await save('clusters.yaml', 'region: us-west', 'region: ap-south');
    expect(cel(again)).toEqual(['clusters.yaml:5:11 region is immutable']);
    // ...and undoing the edit clears it.
    const undone = await save('clusters.yaml', 'region: ap-south', 'region: eu-west');
    expect(cel(undone)).toEqual([]);
    expect(undone.applied).toBe(true);
  });

  it('lets a value grow once it was accepted, and then refuses shrinking it', async () => {
    const { save } = await start();
    const grown = await save('clusters.yaml', 'maxNodes: 9', 'maxNodes: 12');
    expect(cel(grown)).toEqual([]);
    const shrunk = await save('clusters.yaml', 'maxNodes: 12', 'maxNodes: 10');
    expect(cel(shrunk)).toEqual([
      'clusters.yaml:7:13 maxNodes starts at 10 or fewer and may only grow',
    ]);
  });

  it('checks a resource removed in a clean round and added back as a create', async () => {
    const { save } = await start();
    // prod is the first document of the file.
    const prod = /^[\s\S]*?---\n/;
    const removed = await save('clusters.yaml', prod, '');
    expect(removed.applied).toBe(true);
    expect(removed.changes?.tornDown).toHaveLength(1);
    // Back with another region: a create, which no transition rule checks.
    const back = await save(
      'clusters.yaml',
      /^/,
      'metadata:\n  type: cluster\n  id: prod\nspec:\n  region: us-west\n  minNodes: 3\n  maxNodes: 9\n---\n',
    );
    expect(cel(back)).toEqual([]);
    expect(back.applied).toBe(true);
  });

  it('ratchets: a stricter schema keeps an unchanged resource, and flags an edit of its invalid field', async () => {
    const { save } = await start();
    const violations = (round: WatchRound) =>
      round.findings
        .filter((f) => f.severity === 'error')
        .map((f) => `${f.file}:${f.line}:${f.col} ${f.code}`);
    // prod has 9 nodes at most, staging 4: the new maximum refuses prod as a create...
    const stricter = await save(
      'definitions.yaml',
      'maxNodes: { type: integer }',
      'maxNodes: { type: integer, maximum: 5 }',
    );
    // ...but prod's maxNodes did not change since the last round: it stays accepted.
    expect(violations(stricter)).toEqual([]);
    expect(stricter.applied).toBe(true);
    const edited = await save('clusters.yaml', 'maxNodes: 9', 'maxNodes: 12');
    // Its rules are not run on a value its schema refuses, and that is said.
    expect(violations(edited)).toEqual([
      'clusters.yaml:5:3 cel-not-checked',
      'clusters.yaml:7:13 schema-violation',
    ]);
    expect(edited.applied).toBe(false);
  });

  it('re-run from a fresh state checks every resource as a create, as a new start does', async () => {
    const { save, rounds } = await start();
    const stricter = await save(
      'definitions.yaml',
      'maxNodes: { type: integer }',
      'maxNodes: { type: integer, maximum: 5 }',
    );
    expect(stricter.applied).toBe(true);
    // `r`: the ratcheting of the rounds before is forgotten, so prod (9 nodes) is refused.
    const before = rounds.length;
    session?.rerun();
    await session?.idle();
    const rerun = rounds.at(-1) as WatchRound;
    expect(rounds).toHaveLength(before + 1);
    expect(rerun.trigger).toBe('rerun');
    expect(rerun.applied).toBe(false);
    expect(
      rerun.findings
        .filter((f) => f.severity === 'error')
        .map((f) => `${f.file}:${f.line}:${f.col} ${f.code}`),
    ).toEqual(['clusters.yaml:5:3 cel-not-checked', 'clusters.yaml:7:13 schema-violation']);
    const fixed = await save('clusters.yaml', 'maxNodes: 9', 'maxNodes: 5');
    expect(fixed.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(fixed.applied).toBe(true);
  });
});
