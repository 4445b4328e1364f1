import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  newResource,
  freezeResource,
  type Resource,
} from '../../../src/engine/resource/resource.js';
import type { ResourceRow, RoundView, TypeGroup } from '../../../src/cli/ui/round-view.js';
import { visibleLines } from '../../../src/cli/ui/resource-window.js';
import { WatchApp, type WatchAppProps } from '../../../src/cli/ui/watch-app.js';
import { watchCopy, type WatchedCopy } from './watch-rounds.js';

// ink colors with chalk's shared instance, which finds no terminal here: color, to see highlights.
chalk.level = 1;

let watched: WatchedCopy | undefined;
let unmount: (() => void) | undefined;
afterEach(async () => {
  unmount?.();
  unmount = undefined;
  await watched?.close();
  watched = undefined;
});

/**
 * Waits until `check` passes: the screen takes a key in a few turns, more on a loaded machine,
 * where vi.waitFor's own bound (1 s) is too short.
 */
const until = (check: () => void): Promise<void> => vi.waitFor(check, { timeout: 15_000 });

const plain = (text: string | undefined): string =>
  // eslint-disable-next-line no-control-regex
  (text ?? '').replace(/\u001b\[[0-9;]*m/g, '');

function show(round: RoundView | undefined, props: Partial<WatchAppProps> = {}) {
  const handlers = { onQuit: vi.fn(), onTogglePause: vi.fn(), onRerun: vi.fn() };
  const app = render(
    <WatchApp
      round={round}
      rows={40}
      columns={120}
      paused={false}
      stable
      {...handlers}
      {...props}
    />,
  );
  unmount = app.unmount;
  const screen = () => plain(app.lastFrame());
  /** Types keys one at a time, letting the screen take each (ink reads and renders in turns). */
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      app.stdin.write(key);
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { ...app, ...handlers, screen, press };
}

const DOWN = '\u001b[B';
const PAGE_DOWN = '\u001b[6~';
const ENTER = '\r';
const ESC = '\u001b';
const TAB = '\t';

/** A round of `count` resources of one type, built by hand: for the virtualised list. */
function bigRound(count: number): RoundView {
  const rows = Array.from({ length: count }, (_, i) => {
    const id = `vm-${String(i).padStart(5, '0')}`;
    const draft = newResource({ namespace: 'default', type: 'VMs.example.org', id }, { n: i });
    draft.metadata.version = 1;
    const resource = freezeResource(draft) as Resource;
    return { marker: ' ' as const, resource };
  });
  const group: TypeGroup = {
    type: 'VMs.example.org',
    displayType: 'VM',
    names: ['vms.example.org', 'vm'],
    columns: [],
    sensitive: false,
    rows,
  };
  return {
    number: 7,
    trigger: 'manifests',
    changed: ['vms.yaml'],
    files: 100,
    status: 'converged',
    counts: { created: 0, updated: 0, destroyed: 0 },
    resources: count,
    cost: { read: 1, parsed: 1 },
    findings: [],
    lastGoodRunning: false,
    groups: [group],
    controllers: [
      { name: 'Healthy', condition: 'idle', reconciles: 3, writes: 2, errors: 0, failingItems: 0 },
      {
        name: 'Broken',
        condition: 'failed',
        reconciles: 10,
        writes: 0,
        errors: 10,
        lastError: 'cosi.config.ts:12:7: boom\nat reconcile',
        failingItems: 0,
      },
    ],
    writes: new Map(),
  };
}

describe('the watch screen', () => {
  it('shows a header with the round, its trigger, its verdict, its counts and cost', async () => {
    watched = await watchCopy();
    const view = await watched.edit('vms.yaml', 'image: postgres', 'image: mariadb');
    const { screen } = show(view);
    const [line1, line2] = screen().split('\n');
    expect(line1).toBe('cosi watch  round 2  vms.yaml changed  converged');
    expect(line2).toBe(
      '0 created, 2 updated, 0 destroyed | 13 resources | 2 files | read 1, parsed 1',
    );
  });

  it('marks each row created, updated or destroyed this round, grouped by type', async () => {
    watched = await watchCopy();
    const view = await watched.edit('vms.yaml', 'image: postgres', 'image: mariadb');
    const { screen } = show(view);
    expect(screen()).toContain('VM (VMs.example.org): 3');
    expect(screen()).toMatch(/^~ default +db-1 +4 .* mariadb +node-b$/m);
    expect(screen()).toMatch(/^ {2}default +web-1 +3 /m);
    expect(screen()).toMatch(/^~ default +db-1 +2 +vmnet\.NetworkConfigController .* br-mariadb$/m);
  });

  it('highlights the cells that changed', async () => {
    watched = await watchCopy();
    const view = await watched.edit('vms.yaml', 'image: postgres', 'image: mariadb');
    const { lastFrame } = show(view);
    const row = (lastFrame() ?? '').split('\n').find((l) => plain(l).includes('mariadb   node-b'));
    // Bold yellow around the new image, not around the unchanged host.
    expect(row).toContain('\u001b[1m\u001b[33mmariadb');
    expect(row).not.toContain('\u001b[33mnode-b');
  });

  it('shows the findings and that the last good state keeps running', async () => {
    watched = await watchCopy();
    const view = await watched.edit('vms.yaml', 'cpus: 6', 'cpus: 0');
    const { screen } = show(view);
    const lines = screen().split('\n');
    expect(lines[0]).toContain('not applied');
    expect(lines[2]).toBe('nothing applied: the last good state keeps running');
    expect(lines[3]).toMatch(/^vms\.yaml:\d+:\d+: error\[schema-violation\]/);
    expect(screen()).toMatch(/^ {2}default +db-1 +3 .* postgres/m);
  });

  it('wraps a long finding over the lines the findings have, so that its cause reads on an 80-column terminal', () => {
    const message =
      'ResourceGraph(webapp.kro.run) could not reconcile WebApps.kro.run(default/blog) after 10 attempts: WebApps.kro.run default/blog: resource deployment renders an invalid Deployment: /spec/replicas: Invalid value: -1: must be greater than or equal to 0';
    const finding = {
      file: 'instances.yaml',
      line: 11,
      col: 1,
      pointer: '',
      code: 'reconcile-failed',
      severity: 'error' as const,
      message,
    };
    const { screen } = show({ ...bigRound(3), findings: [finding] }, { columns: 80 });
    const lines = screen().split('\n');
    const start = lines.findIndex((l) =>
      l.startsWith('instances.yaml:11:1: error[reconcile-failed]'),
    );
    expect(start).toBeGreaterThan(0);
    const wrapped = [lines[start]!];
    for (
      let i = start + 1;
      lines[i]?.startsWith('  ') === true && !/^ {2}NAMESPACE/.test(lines[i]!);
      i++
    ) {
      wrapped.push(lines[i]!);
    }
    for (const line of wrapped) expect(line.length).toBeLessThanOrEqual(80);
    expect(wrapped.map((l) => l.trim()).join(' ')).toBe(
      `instances.yaml:11:1: error[reconcile-failed]: ${message}`,
    );
    unmount?.();
    // Two findings share the lines: three each, and the rest of the screen stays; a line break
    // in a message (a controller's error) does not add a line the layout did not count.
    const two = show(
      {
        ...bigRound(3),
        findings: [
          finding,
          { ...finding, line: 1, message: `kaboom\nthe second line of it ${message}` },
        ],
      },
      { columns: 80, rows: 12 },
    );
    expect(two.screen()).toContain('instances.yaml:1:1: error[reconcile-failed]');
    expect(two.screen()).toMatch(/…$/m);
    expect(two.screen()).toContain('vm-00000');
    expect(two.screen()).toContain('kaboom the second line of it');
    expect(two.screen().split('\n')).toHaveLength(11);
    expect(two.screen().split('\n')[0]).toMatch(/^cosi watch {2}round 7/);
  });

  it('opens every finding with f when the panel has no room for them all', async () => {
    const findings = Array.from({ length: 20 }, (_, i) => ({
      file: `apps/app${i}.yaml`,
      line: 8,
      col: 13,
      pointer: '/spec/replicas',
      code: 'schema-violation',
      severity: 'error' as const,
      message: 'must be integer',
    }));
    const round: RoundView = { ...bigRound(50), status: 'not-applied', findings };
    const { screen, press } = show(round, { rows: 30 });
    expect(screen()).toContain('... and 15 more (f shows them all)');
    expect(screen()).not.toContain('apps/app19.yaml');
    await press('f');
    await until(() => expect(screen()).toContain('findings (20)'));
    const page = screen().split('\n');
    // The page takes the room of the resources, the panel's and the controllers'.
    expect(page).toContain(
      'apps/app0.yaml:8:13: error[schema-violation]: must be integer (at /spec/replicas)',
    );
    expect(page).toContain(
      'apps/app19.yaml:8:13: error[schema-violation]: must be integer (at /spec/replicas)',
    );
    expect(screen()).not.toContain('vm-00000');
    expect(page.at(-1)).toBe('esc back  ↑↓ scroll  q quit');
    // On a shorter terminal the page scrolls.
    unmount?.();
    const short = show(round, { rows: 12 });
    await short.press('f');
    await until(() => expect(short.screen()).toContain('findings (20)'));
    expect(short.screen()).not.toContain('apps/app19.yaml');
    await short.press(...Array.from({ length: 15 }, () => DOWN));
    await until(() => expect(short.screen()).toContain('apps/app19.yaml:8:13'));
    await short.press(ESC);
    await until(() => expect(short.screen()).toContain('vm-00000'));
  });

  it('narrows a long OWNER column first on a narrow terminal, so that the spec columns after it stay on screen', () => {
    const owner = 'ResourceGraph(webapp.kro.run)';
    const rows = ['blog', 'shop'].map((id) => {
      const draft = newResource(
        { namespace: 'default', type: 'Deployments.apps', id },
        { replicas: 3, image: 'nginx' },
      );
      draft.metadata.version = 1;
      draft.metadata.owner = owner;
      return { marker: ' ' as const, resource: freezeResource(draft) };
    });
    const group: TypeGroup = {
      type: 'Deployments.apps',
      displayType: 'Deployment',
      names: ['deployment'],
      columns: [
        { name: 'Replicas', jsonPath: '{.replicas}' },
        { name: 'Images', jsonPath: '{.image}' },
      ],
      sensitive: false,
      rows,
    };
    const { screen } = show({ ...bigRound(1), groups: [group], controllers: [] }, { columns: 80 });
    const row = screen()
      .split('\n')
      .find((l) => l.includes('blog'));
    expect(row).toMatch(/^ {2}default {5}blog {3}1 {9}ResourceGr\S*… +running {3}3 {10}nginx$/);
    expect(row!.length).toBeLessThanOrEqual(80);
    // Wide enough: the owner whole.
    unmount?.();
    const wide = show({ ...bigRound(1), groups: [group], controllers: [] }, { columns: 120 });
    expect(wide.screen()).toContain(`${owner}   running   3          nginx`);
  });

  it('renders only the rows on screen: 30,000 resources fill the terminal and no more', () => {
    const round = bigRound(30_000);
    const started = performance.now();
    const { screen } = show(round);
    const ms = performance.now() - started;
    const lines = screen().split('\n');
    expect(lines.length).toBeLessThanOrEqual(39);
    expect(screen()).toContain('vm-00000');
    expect(screen()).not.toContain('vm-29999');
    expect(visibleLines(round.groups, { group: 0, row: 29_999 }, 30)).toHaveLength(30);
    // Generous: a full table of 30k rows takes seconds.
    expect(ms).toBeLessThan(1000);
  });

  it('moves through rows with the arrows, keeping the selection on screen', async () => {
    const { screen, press } = show(bigRound(500));
    await press(PAGE_DOWN, PAGE_DOWN, DOWN, DOWN);
    // Two pages and two rows down: the selection is past row 60, and the window follows it.
    await until(() => expect(screen()).toContain('vm-00064'));
    expect(screen()).not.toContain('vm-00000');
  });

  it('jumps to the rows a round changed with n and back with N, far past the screen', async () => {
    const round = bigRound(5000);
    const [group] = round.groups as [TypeGroup];
    const mark = (i: number, marker: '~' | '-') => ({ ...(group.rows[i] as ResourceRow), marker });
    const rows = group.rows.map((row, i) =>
      i === 3100 ? mark(i, '~') : i === 4998 ? mark(i, '-') : row,
    );
    const { screen, press } = show({ ...round, groups: [{ ...group, rows }] });
    expect(screen()).not.toContain('vm-03100');
    await press('n');
    await until(() => expect(screen()).toContain('vm-03100'));
    await press(ENTER);
    await until(() => expect(screen()).toContain('VM default/vm-03100  (updated this round)'));
    await press(ESC, 'n');
    await until(() => expect(screen()).toContain('vm-04998'));
    // Round the list: back to the first change, and N goes the other way.
    await press('n');
    await until(() => expect(screen()).not.toContain('vm-04998'));
    await press('N', ENTER);
    await until(() => expect(screen()).toContain('VM default/vm-04998  (destroyed this round)'));
  });

  it('shows each controller with its status, reconciles, writes and last error', () => {
    const { screen } = show(bigRound(3));
    expect(screen()).toContain('CONTROLLERS (2)');
    expect(screen()).toMatch(/^Healthy +idle +3 reconciles, 2 writes$/m);
    expect(screen()).toMatch(
      /^Broken +given up +10 reconciles, 0 writes, 10 errors {2}cosi\.config\.ts:12:7: boom$/m,
    );
  });

  it('shows when a controller in backoff retries', () => {
    const round = bigRound(3);
    const { screen } = show({
      ...round,
      controllers: [
        {
          name: 'Flaky',
          condition: 'backoff',
          reconciles: 2,
          writes: 0,
          errors: 2,
          lastError: 'no water',
          failingItems: 1,
          retryIn: 1625,
        },
      ],
    });
    expect(screen()).toMatch(
      /^Flaky +backoff, retry in 1\.63s +1 item failing; {2}2 reconciles, 0 writes, 2 errors {2}no water$/m,
    );
  });

  it('filters by id with /, keeps the filter with Enter and drops it with Escape', async () => {
    watched = await watchCopy();
    const { screen, press } = show(watched.views[0]);
    await press('/');
    await until(() => expect(screen()).toContain('type, id or label=value'));
    await press('w', 'e', 'b', '-', '1');
    await until(() => expect(screen()).not.toContain('db-1'));
    expect(screen()).toContain('/web-1');
    expect(screen()).toMatch(/^\+ default +web-1 +3 /m);
    await press(ENTER);
    expect(screen()).not.toContain('db-1');
    await press('/');
    await press(ESC);
    await until(() => expect(screen()).toContain('db-1'));
  });

  it('takes keys that arrive in one read (pasted, or batched over ssh) as typed one at a time', async () => {
    watched = await watchCopy();
    const { screen, press } = show(watched.views[0], { rows: 60 });
    // `/`, the filter and Enter in one read: filtered, and the filter kept.
    await press(`/web-1${ENTER}`);
    await until(() => expect(screen()).not.toContain('db-1'));
    expect(screen()).toContain('/web-1');
    expect(screen()).not.toContain('type, id or label=value');
    // Enter then opens a web-1, not the first resource of the unfiltered list.
    await press(ENTER);
    await until(() => expect(screen()).toMatch(/^\S+ default\/web-1 /m));
    await press(ESC, '/', ESC);
    await until(() => expect(screen()).toContain('db-1'));
    // The filter open, its text and Enter in one read.
    await press('/');
    await until(() => expect(screen()).toContain('type, id or label=value'));
    await press(`db-1${ENTER}`);
    await until(() => expect(screen()).not.toContain('web-1'));
    expect(screen()).toContain('/db-1');
    expect(screen()).not.toContain('type, id or label=value');
  });

  it('edits the filter as a shell prompt does: Ctrl-U, Ctrl-W, Ctrl-A, Alt-B are keys, not letters', async () => {
    watched = await watchCopy();
    const { screen, press } = show(watched.views[0]);
    await press('/');
    await until(() => expect(screen()).toContain('type, id or label=value'));
    await press('tier=data', ENTER);
    await until(() => expect(screen()).toContain('VM (VMs.example.org): 1'));
    // `/` reopens the kept filter; Ctrl-U clears it, and every resource is back.
    await press('/', '\u0015');
    await until(() => expect(screen()).toContain('db-1'));
    expect(screen()).toContain('type, id or label=value');
    expect(screen()).not.toMatch(/^\/u/m);
    // Ctrl-W deletes back to a space; Ctrl-A and Alt-B move, and text goes in at the cursor.
    await press('web', ' ', 'x', '\u0017');
    // (The cursor, at the end, is one more space.)
    await until(() => expect(screen()).toMatch(/^\/web {2}$/m));
    await press('\u0001', 'a');
    await until(() => expect(screen()).toMatch(/^\/aweb *$/m));
    await press('\u0005', '\u001bb', 'z');
    await until(() => expect(screen()).toMatch(/^\/zaweb *$/m));
    await press(ESC);
    // Tab takes the type the text begins; Enter keeps what was typed.
    await press('/', 'netw', TAB);
    await until(() => expect(screen()).toMatch(/^\/networkconfig $/m));
    await press(ENTER);
    await until(() => expect(screen()).not.toContain('VM (VMs.example.org)'));
    expect(screen()).toContain('NetworkConfig');
  });

  it('filters by type alias and by label', async () => {
    watched = await watchCopy();
    const { screen, press } = show(watched.views[0]);
    const filter = async (text: string) => {
      await press('/');
      await until(() => expect(screen()).toMatch(/^\/.*$/m));
      await press(ESC);
      await press('/');
      await until(() => expect(screen()).toContain('type, id or label=value'));
      await press(text);
      await until(() => expect(screen()).toContain(`/${text}`));
      await press(ENTER);
    };
    await filter('vm');
    await until(() => expect(screen()).not.toContain('Host (Hosts.example.org)'));
    expect(screen()).toContain('VM (VMs.example.org): 3');
    await filter('tier=data');
    await until(() => expect(screen()).toContain('VM (VMs.example.org): 1'));
  });

  it('opens the selected resource with Enter: lineage, last writes, diff and YAML', async () => {
    watched = await watchCopy();
    const view = await watched.edit('vms.yaml', 'image: postgres', 'image: mariadb');
    const { screen, press } = show(view, { rows: 60 });
    // Tab to NetworkConfig (the third type); db-1 is its first row.
    await press(TAB, TAB);
    await press(ENTER);
    await until(() => expect(screen()).toContain('NetworkConfig default/db-1'));
    expect(screen()).toContain('written by vmnet.NetworkConfigController');
    // Back to the manifest's own line, as `cosi explain` shows it.
    expect(screen()).toMatch(
      /└─ strong: VMs\.example\.org\(default\/db-1\)@\d+ {2}<- manifest \S*vms\.yaml:\d+:1/,
    );
    expect(screen()).toMatch(
      /v2 {2}update by vmnet\.NetworkConfigController reconcile #\d+ {2}changed \/spec\/bridge/,
    );
    expect(screen()).toMatch(/^ {2}- {3}bridge: br-postgres$/m);
    expect(screen()).toMatch(/^ {2}\+ {3}bridge: br-mariadb$/m);
    await press(ESC);
    await until(() => expect(screen()).toContain('NetworkConfig (NetworkConfigs.example.org): 3'));
  });

  it('asks the session to pause, re-run and quit with p, r and q, and shows help with ?', async () => {
    watched = await watchCopy();
    const app = show(watched.views[0]);
    await app.press('p', 'r');
    expect(app.onTogglePause).toHaveBeenCalledTimes(1);
    expect(app.onRerun).toHaveBeenCalledTimes(1);
    app.rerender(
      <WatchApp
        round={watched.views[0]}
        rows={40}
        columns={120}
        paused
        onQuit={app.onQuit}
        onTogglePause={app.onTogglePause}
        onRerun={app.onRerun}
      />,
    );
    expect(app.screen().split('\n')[0]).toContain('[paused]');
    await app.press('?');
    await until(() => expect(app.screen()).toContain('re-run from a fresh state'));
    await app.press('q');
    expect(app.onQuit).toHaveBeenCalledTimes(1);
  });

  it('says a round is running once it has run a moment, and counts its seconds', async () => {
    const started = Date.now();
    const app = show(bigRound(3), { running: { number: 8, since: started } });
    const header = () => app.screen().split('\n')[0] ?? '';
    // A round of a few milliseconds (most) does not flash the header.
    if (Date.now() - started < 200) expect(header()).not.toContain('[round 8');
    await until(() =>
      expect(header()).toMatch(
        /^cosi watch {2}round 7 {2}vms\.yaml changed {2}converged \[round 8 running \d+s\]$/,
      ),
    );
    // One that has run for a while says for how long; the round shown stays the last one.
    app.rerender(
      <WatchApp
        round={bigRound(3)}
        rows={40}
        columns={120}
        paused={false}
        running={{ number: 8, since: Date.now() - 5_000 }}
        onQuit={app.onQuit}
        onTogglePause={app.onTogglePause}
        onRerun={app.onRerun}
      />,
    );
    await until(() => expect(header()).toMatch(/\[round 8 running [5-9]s\]$/));
  });

  it('counts the seconds of the first round while it loads', async () => {
    const app = show(undefined, { running: { number: 1, since: Date.now() - 3_000 } });
    await until(() => expect(app.screen()).toMatch(/^cosi watch: loading\.\.\. [3-9]s$/));
    unmount?.();
    expect(show(undefined).screen()).toBe('cosi watch: loading...');
  });

  it('focuses the controllers panel with c', async () => {
    const { screen, press, lastFrame } = show(bigRound(3));
    await press('c');
    await until(() => expect(screen()).toContain('c / esc back'));
    expect(lastFrame()).toContain('\u001b[7mHealthy');
    await press(DOWN);
    // The panel keeps one line per controller: the error's first line.
    await until(() => expect(lastFrame()).toContain('\u001b[7mBroken'));
    expect(screen()).not.toContain('at reconcile');
  });

  it('opens the selected controller with Enter: its whole last error, back with Escape', async () => {
    const { screen, press } = show(bigRound(3));
    await press('c', DOWN, ENTER);
    await until(() => expect(screen()).toContain('controller Broken'));
    expect(screen()).toMatch(/^ {2}condition {3}given up$/m);
    expect(screen()).toMatch(/^ {2}cosi\.config\.ts:12:7: boom\n {2}at reconcile$/m);
    await press(ESC);
    await until(() => expect(screen()).toContain('enter open  c / esc back'));
    expect(screen()).not.toContain('controller Broken');
  });
});
