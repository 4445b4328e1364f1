import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startWatchSession } from '../../src/app/watch-session.js';
import { createColors } from '../../src/cli/render/report.js';
import { MAX_WARNINGS_PER_CODE } from '../../src/cli/render/repeated-warnings.js';
import { renderRoundLines } from '../../src/cli/ui/line-stream.js';
import { createRoundViews, type RoundView } from '../../src/cli/ui/round-view.js';
import { temporaryTree } from '../support/temporary-directory.js';
import { cli, REPO } from './run-cli.js';

/** 25 kro WebApps whose Ingress is ready only with a load balancer no controller here writes. */
async function waitingWebApps(): Promise<string> {
  const rgd = (await readFile(path.join(REPO, 'fixtures/kro-webapp/rgd.yaml'), 'utf8')).replace(
    '    - id: ingress\n',
    '    - id: ingress\n      readyWhen:\n        - ${ingress.status.loadBalancer.ingress[0].ip != ""}\n',
  );
  const instances = Array.from(
    { length: 25 },
    (_, i) =>
      `apiVersion: kro.run/v1alpha1\nkind: WebApp\nmetadata:\n  name: app${i}\nspec:\n  name: app${i}\n  ingress:\n    enabled: true\n`,
  ).join('---\n');
  return temporaryTree('cosi-repeated-', { 'rgd.yaml': rgd, 'instances.yaml': instances });
}

const waitingLines = (text: string) =>
  text.split('\n').filter((line) => line.includes('warning[rgd-waiting]'));

describe('a warning repeated for many resources', () => {
  it('is listed ten times and counted once in text; json keeps every one', async () => {
    const dir = await waitingWebApps();
    const apply = await cli(['apply', '-f', dir], { cwd: dir });
    expect(apply.code).toBe(0);
    expect(waitingLines(apply.stderr)).toHaveLength(MAX_WARNINGS_PER_CODE);
    expect(apply.stderr).toContain(
      'and 15 more rgd-waiting warnings like the ones above (25 in all; cosi check -o json lists every one)',
    );
    // The count under them is of every warning.
    expect(apply.stderr).toContain('0 errors, 25 warnings');

    const check = await cli(['check', '.'], { cwd: dir });
    expect(check.code).toBe(0);
    expect(waitingLines(check.stdout)).toHaveLength(MAX_WARNINGS_PER_CODE);
    expect(check.stdout).toContain(
      'and 15 more rgd-waiting warnings like the ones above (25 in all; -o json lists every one)',
    );

    const json = await cli(['check', '.', '-o', 'json'], { cwd: dir });
    expect(json.code).toBe(0);
    expect(json.stdout.match(/"rgd-waiting"/g)).toHaveLength(25);
  }, 120_000);

  it('fails the run in full under --strict: failing warnings are all listed', async () => {
    const dir = await waitingWebApps();
    const check = await cli(['check', '.', '--strict'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(waitingLines(check.stdout)).toHaveLength(25);
    expect(check.stdout).not.toContain('more rgd-waiting warnings');
  }, 120_000);

  it("is counted in a watch round's lines too, the round keeping every finding", async () => {
    const dir = await waitingWebApps();
    const toView = createRoundViews({ stable: true });
    const views: RoundView[] = [];
    const session = await startWatchSession({
      files: ['.'],
      cwd: dir,
      stable: true,
      debounceMs: 0,
      watch: () => ({ close: () => Promise.resolve() }),
      onRound: (round) => views.push(toView(round)),
    });
    try {
      await session.idle();
      const [round] = views;
      expect(round?.findings.filter((f) => f.code === 'rgd-waiting')).toHaveLength(25);
      const text = renderRoundLines(round as RoundView, createColors(false));
      expect(waitingLines(text)).toHaveLength(MAX_WARNINGS_PER_CODE);
      expect(text).toContain('and 15 more rgd-waiting warnings like the ones above');
    } finally {
      await session.close();
    }
  }, 120_000);

  it('are printed without their count line under -q, which prints no summary', async () => {
    const dir = await waitingWebApps();
    const quiet = await cli(['apply', '-q', '-f', dir], { cwd: dir });
    expect(quiet.code).toBe(0);
    expect(waitingLines(quiet.stderr)).toHaveLength(MAX_WARNINGS_PER_CODE);
    expect(quiet.stderr).toContain('and 15 more rgd-waiting warnings like the ones above');
    expect(quiet.stderr).not.toContain('25 warnings');
    expect(quiet.stderr).not.toContain('converged');
    const graph = await cli(['graph', '--resources', '-q', '-f', dir], { cwd: dir });
    expect(graph.code).toBe(0);
    expect(graph.stderr).not.toContain('25 warnings');
  }, 120_000);
});
