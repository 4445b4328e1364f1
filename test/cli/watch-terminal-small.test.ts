/**
 * `cosi watch` in a real terminal that is narrow or short, or paused: tmux runs the built CLI on a
 * copy of a fixture and resizes its window; the test reads the screen with `tmux capture-pane`
 * (bounded waits, no fixed sleeps). Needs `dist/` (npm run build) and tmux.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';
import { saveFile } from '../support/save-file.js';
import { screenWaiter, startWatchInTmux, tmuxServer } from '../support/tmux-watch.js';

const SOCKET = `cosi-watch-small-${process.pid}`;
const SESSION = 'watch';
const tmux = tmuxServer(SOCKET);
const waitForScreen = screenWaiter(tmux, SESSION, 30_000);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-small-'));
  await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
});
afterEach(async () => {
  await tmux('kill-server').catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const resize = (columns: number, rows: number) =>
  tmux('resize-window', '-t', SESSION, '-x', String(columns), '-y', String(rows));
const lines = (screen: string) => screen.replace(/\n+$/, '').split('\n');

describe('cosi watch in a small terminal', () => {
  it('keeps the round and its verdict on the first line, and the type above its table', async () => {
    await startWatchInTmux(tmux, SESSION, REPO, dir, ['--stable']);
    await waitForScreen((s) => s.includes('round 1'), 'the first round');

    // The trigger goes first.
    await resize(32, 10);
    const narrow = await waitForScreen(
      (s) => lines(s).length <= 10 && lines(s)[0] === 'cosi watch  round 1  converged',
      'the verdict at 32 columns',
    );
    // The first table's title is there, on one line, above its rows.
    expect(narrow).toMatch(/^HostStatus \(HostStatuses\.exa.*…\n\+ default/m);

    await resize(120, 6);
    const short = await waitForScreen(
      (s) => lines(s)[0] === 'cosi watch  round 1  started  converged' && lines(s).length <= 6,
      'the header at 6 rows',
    );
    expect(lines(short)[1]).toMatch(/^13 created, 0 updated, 0 destroyed/);

    await resize(20, 5);
    await waitForScreen(
      (s) => /^round 1 {2}converge/.test(lines(s)[0] ?? '') && lines(s).length <= 5,
      'the verdict at 20 by 5',
    );
  }, 120_000);

  it('shows the keys that fit in the help of a short terminal, whole, and scrolls to the rest', async () => {
    await startWatchInTmux(tmux, SESSION, REPO, dir, ['--stable']);
    await waitForScreen((s) => s.includes('round 1'), 'the first round');
    await resize(120, 8);
    await waitForScreen((s) => lines(s).length <= 8 && s.includes('HostStatus'), 'the short list');
    await tmux('send-keys', '-t', SESSION, '?');
    const help = await waitForScreen((s) => /^keys$/m.test(s), 'the help');
    expect(lines(help)[0]).toBe('cosi watch  round 1  started  converged');
    expect(help).toMatch(/^ {2}q {8}quit$/m);
    expect(help).toMatch(/^ {2}\/ {8}filter by type, id or label$/m);
    expect(help).toMatch(/^ {2}↓ \d+ more$/m);
    // Every line is one of the help's, whole: nothing left over from the list.
    expect(help).not.toMatch(/HostStatus|NAMESPACE/);
    for (let i = 0; i < 10; i++) await tmux('send-keys', '-t', SESSION, 'Down');
    const end = await waitForScreen(
      (s) => s.includes('back to the resources'),
      'the end of the help',
    );
    expect(end).toMatch(/^ {2}\? {8}help$/m);
  }, 120_000);

  it('pins the title and column headers of a type while its rows scroll', async () => {
    await startWatchInTmux(tmux, SESSION, REPO, dir, ['--stable']);
    await waitForScreen((s) => s.includes('round 1'), 'the first round');
    await resize(120, 12);
    await waitForScreen(
      (s) => lines(s).length <= 12 && s.includes('CONTROLLERS'),
      'the short list',
    );
    // Into the NetworkConfigs: past the HostStatus and Host rows.
    for (let i = 0; i < 6; i++) await tmux('send-keys', '-t', SESSION, 'Down');
    const scrolled = await waitForScreen(
      (s) =>
        /^NetworkConfig \(NetworkConfigs\.example\.org\): 3$/m.test(s) && !s.includes('Host ('),
      'the NetworkConfigs scrolled to',
    );
    const at = lines(scrolled).findIndex((l) => l.startsWith('NetworkConfig ('));
    expect(lines(scrolled)[at + 1]).toMatch(
      /^ {2}NAMESPACE +ID +VERSION +OWNER +PHASE +HOSTNAME +BRIDGE$/,
    );
  }, 120_000);

  it('says how many files changed while paused', async () => {
    await startWatchInTmux(tmux, SESSION, REPO, dir, ['--stable']);
    await waitForScreen((s) => s.includes('round 1'), 'the first round');
    await tmux('send-keys', '-t', SESSION, 'p');
    await waitForScreen((s) => s.includes('[paused]'), 'paused');
    const vms = path.join(dir, 'vms.yaml');
    const hosts = path.join(dir, 'hosts.yaml');
    const vmsText = (await readFile(vms, 'utf8')).replace('image: postgres', 'image: mariadb');
    const hostsText = `${await readFile(hosts, 'utf8')}# edited\n`;
    let polls = 0;
    const waiting = await waitForScreen(
      (s) => s.includes('[paused: 2 files changed]'),
      'the changes waiting',
      {
        // The watcher may still be scanning when the first edit lands: write again, within the bound.
        meanwhile: async () => {
          if (polls++ % 10 !== 0) return;
          await saveFile(vms, polls === 1 ? vmsText : `${vmsText}\n`);
          await saveFile(hosts, polls === 1 ? hostsText : `${hostsText}\n`);
        },
      },
    );
    expect(lines(waiting)[0]).toBe(
      'cosi watch  round 1  started  converged [paused: 2 files changed]',
    );
    await tmux('send-keys', '-t', SESSION, 'p');
    await waitForScreen(
      (s) => /^cosi watch {2}round 2 {2}hosts\.yaml, vms\.yaml changed {2}converged$/m.test(s),
      'the round of both files on resume',
    );
  }, 120_000);
});
