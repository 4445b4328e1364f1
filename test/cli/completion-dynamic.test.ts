/**
 * The completion script in a real bash, completing from a real project: the script calls the
 * built `bin/cosi.js` (through a `cosi` shell function) for the project's types, aliases and ids.
 * The function is called with the words bash would give it, and an interactive bash on a
 * terminal (tmux) completes as the user presses TAB, through what `complete` registered.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenWaiter, tmuxServer } from '../support/tmux-watch.js';
import { writeStarterProject } from '../../src/app/init/write-starter-project.js';
import { cli, REPO } from './run-cli.js';

let dir: string;
let project: string;
let script: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-completion-'));
  project = path.join(dir, 'project');
  await mkdir(path.join(project, '.git'), { recursive: true });
  await writeStarterProject(project);
  script = path.join(dir, 'cosi.bash');
  await writeFile(script, (await cli(['completion', 'bash'])).stdout);
  await writeFile(
    path.join(dir, 'other.yaml'),
    'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: hosts.example.org }\nspec: { type: Hosts.example.org }\n---\nmetadata: { type: host, id: node-a }\nspec: {}\n',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What bash completes for the words typed so far (the last one being completed), in `cwd`. */
function complete(words: readonly string[], cwd = project): string[] {
  const program = [
    `cosi() { ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO, 'bin/cosi.js'))} "$@"; }`,
    `source ${JSON.stringify(script)}`,
    `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_cosi',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter((l) => l !== '');
}

describe('completion in bash', { timeout: 120_000 }, () => {
  it('is registered for the cosi command, by the function it defines', () => {
    const result = spawnSync(
      'bash',
      ['--norc', '--noprofile', '-c', `source ${JSON.stringify(script)}\ncomplete -p cosi`],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.stdout).toBe('complete -o filenames -F _cosi cosi\n');
  });

  it("completes get's type from the project's types and aliases", () => {
    const types = complete(['cosi', 'get', '']);
    expect(types).toEqual(
      expect.arrayContaining(['Apps.example.org', 'app', 'appconfig', 'AppConfigs.example.org']),
    );
    expect(complete(['cosi', 'get', 'appc'])).toEqual(['appconfig']);
    expect(complete(['cosi', 'explain', 'Apps.'])).toEqual(['Apps.example.org']);
  });

  it('completes the id of the type given, after a run (controller outputs too)', () => {
    expect(complete(['cosi', 'get', 'app', ''])).toEqual(['api', 'web']);
    expect(complete(['cosi', 'get', 'appconfig', 'w'])).toEqual(['web']);
    expect(complete(['cosi', 'get', '-o', 'name', 'app', 'a'])).toEqual(['api']);
    // get takes several ids (kubectl's habit), explain one: after it, files.
    expect(complete(['cosi', 'get', 'app', 'api', 'w'])).toEqual(['web']);
    expect(complete(['cosi', 'explain', 'app', 'api', 'w'])).not.toContain('web');
  });

  it('asks the project the -f given on the line names', () => {
    expect(complete(['cosi', 'get', '-f', '../other.yaml', 'ho'])).toEqual(['host']);
    expect(complete(['cosi', 'get', '-f', '../other.yaml', 'host', ''])).toEqual(['node-a']);
  });

  it('reads a -f path typed with quotes or escaped spaces as the shell would (review cli3 L2)', async () => {
    await mkdir(path.join(dir, 'my dir'), { recursive: true });
    await writeFile(
      path.join(dir, 'my dir/other.yaml'),
      'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: hosts.example.org }\nspec: { type: Hosts.example.org }\n---\nmetadata: { type: host, id: node-b }\nspec: {}\n',
    );
    // COMP_WORDS holds the words as typed, quotes and backslashes included.
    for (const typed of [
      '../my\\ dir/other.yaml',
      `'../my dir/other.yaml'`,
      '"../my dir/other.yaml"',
    ]) {
      expect(complete(['cosi', 'get', '-f', typed, 'host', ''])).toEqual(['node-b']);
    }
  });

  it("completes -n with the namespaces the project's resources are in", () => {
    const minimal = path.join(REPO, 'fixtures/minimal');
    expect(complete(['cosi', 'get', '-f', minimal, 'vm', '-n', ''])).toEqual([
      'default',
      'staging',
    ]);
    expect(complete(['cosi', 'apply', '-f', minimal, '--namespace', 'st'])).toEqual(['staging']);
  });

  it('completes the shell of cosi completion', () => {
    expect(complete(['cosi', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(complete(['cosi', 'completion', 'z'])).toEqual(['zsh']);
    expect(complete(['cosi', 'completion', 'zsh', ''])).toEqual([]);
  });

  it('completes output formats after -o, and flags', () => {
    expect(complete(['cosi', 'get', 'app', '-o', 'json'])).toEqual([
      'json',
      'jsonpath=',
      'jsonpath-as-json=',
    ]);
    expect(complete(['cosi', 'graph', '-o', 'm'])).toEqual(['mermaid']);
    expect(complete(['cosi', 'get', '--sort'])).toEqual(['--sort-by']);
    expect(complete(['cosi', 'get', '--wa'])).toEqual(['--watch']);
    expect(complete(['cosi', 'get', '--output-w'])).toEqual(['--output-watch-events']);
    expect(complete(['cosi', 'in'])).toEqual(['init']);
  });

  it('reads --flag=value as bash splits it at the =, and completes the value', () => {
    // bash's words for `cosi get app --output=j` (COMP_WORDBREAKS holds =), and so on.
    expect(complete(['cosi', 'get', 'app', '--output', '=', 'j'])).toEqual([
      'json',
      'jsonpath=',
      'jsonpath-as-json=',
    ]);
    expect(complete(['cosi', 'get', 'app', '-o', '=', 'ya'])).toEqual(['yaml']);
    // The cursor just after the =: every format.
    expect(complete(['cosi', 'graph', '--output', '='])).toEqual([
      'text',
      'tree',
      'dot',
      'svg',
      'mermaid',
      'json',
    ]);
    // A flag's value after = is no type, and -f=PATH names the project.
    expect(complete(['cosi', 'get', '--output', '=', 'yaml', 'app', ''])).toEqual(['api', 'web']);
    expect(complete(['cosi', 'get', '-f', '=', '../other.yaml', 'ho'])).toEqual(['host']);
  });

  it('completes nothing, quietly, where there is no project', async () => {
    const empty = path.join(dir, 'empty');
    await mkdir(path.join(empty, '.git'), { recursive: true });
    expect(complete(['cosi', 'get', 'x'], empty)).toEqual([]);
  });

  it('keeps the __complete command out of help and out of the command list', async () => {
    expect((await cli(['--help'])).stdout).not.toContain('__complete');
    expect(complete(['cosi', '_'])).toEqual([]);
  });
});

describe("completion with the project's own cosi (npm install --save-dev, npx cosi)", () => {
  // No cosi on PATH: the project's node_modules/.bin/cosi, as npm installs it, runs the built CLI.
  let own: string;
  beforeAll(async () => {
    own = path.join(dir, 'own');
    await mkdir(path.join(own, '.git'), { recursive: true });
    await writeStarterProject(own);
    await mkdir(path.join(own, 'node_modules/.bin'), { recursive: true });
    await writeFile(
      path.join(own, 'node_modules/.bin/cosi'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO, 'bin/cosi.js'))} "$@"\n`,
      { mode: 0o755 },
    );
    await mkdir(path.join(own, 'manifests/more'), { recursive: true });
  });

  /** What the function bash calls for the line completes, with no `cosi` command anywhere. */
  function completeOwn(words: readonly string[], cwd = own): string[] {
    const program = [
      `source ${JSON.stringify(script)}`,
      'type cosi >/dev/null 2>&1 && { echo "a cosi is on PATH" >&2; exit 1; }',
      `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})`,
      `COMP_CWORD=${words.length - 1}`,
      words[0] === 'npx' ? '_cosi_npx' : '_cosi',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
      cwd,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, PATH: path.dirname(process.execPath) + ':/usr/bin:/bin' },
    });
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter((l) => l !== '');
  }

  it("completes npx cosi ... from the project's node_modules/.bin/cosi, in any directory of it", () => {
    expect(completeOwn(['npx', 'cosi', 'get', 'appc'])).toEqual(['appconfig']);
    expect(completeOwn(['npx', 'cosi', 'get', 'app', 'w'])).toEqual(['web']);
    expect(completeOwn(['npx', 'cosi', 'get', 'appc'], path.join(own, 'manifests/more'))).toEqual([
      'appconfig',
    ]);
    expect(completeOwn(['npx', 'cos'])).toEqual(expect.arrayContaining(['cosi', 'cosi.config.ts']));
    // Another package's npx line: files, as bash completes it without a completion.
    expect(completeOwn(['npx', 'tsc', 'cosi.c'])).toEqual(['cosi.config.ts']);
  });

  it("completes the cosi typed as a path, and the project's own for a cosi not on PATH", () => {
    expect(completeOwn(['node_modules/.bin/cosi', 'get', 'appc'])).toEqual(['appconfig']);
    expect(completeOwn(['./node_modules/.bin/cosi', 'explain', 'Apps.'])).toEqual([
      'Apps.example.org',
    ]);
    expect(completeOwn(['cosi', 'get', 'app', ''])).toEqual(['api', 'web']);
  });

  it('registers npx, unless npx completes already', () => {
    const registered = (before: string): string =>
      spawnSync(
        'bash',
        [
          '--norc',
          '--noprofile',
          '-c',
          `${before}\nsource ${JSON.stringify(script)}\ncomplete -p npx`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      ).stdout;
    expect(registered('')).toBe('complete -o filenames -F _cosi_npx npx\n');
    expect(registered('_mine() { :; }; complete -F _mine npx')).toBe('complete -F _mine npx\n');
  });
});

describe('completion in an interactive bash on a terminal', { timeout: 120_000 }, () => {
  const tmux = tmuxServer(`cosi-completion-${process.pid}`);
  const SESSION = 'bash';
  const waitForScreen = screenWaiter(tmux, SESSION, 30_000);
  /** The screen's last line that is not empty: the prompt and what is typed after it. */
  const lastLine = (screen: string): string =>
    screen
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1)
      ?.trimEnd() ?? '';

  beforeAll(async () => {
    const rc = path.join(dir, 'bashrc');
    await writeFile(
      rc,
      [
        "PS1='$ '",
        // No history file: what the test types stays out of the user's ~/.bash_history.
        'unset HISTFILE',
        `cosi() { ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO, 'bin/cosi.js'))} "$@"; }`,
        `source <(cosi completion bash)`,
        '',
      ].join('\n'),
    );
    await tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      SESSION,
      '-x',
      '150',
      '-y',
      '40',
      '-c',
      project,
      `bash --rcfile ${JSON.stringify(rc)} --noprofile -i`,
    );
    await waitForScreen((screen) => lastLine(screen) === '$', 'the prompt');
  });
  afterAll(async () => {
    await tmux('kill-server').catch(() => undefined);
  });

  /** Types `typed` and TAB on an empty prompt; waits for bash to make the line `completed`. */
  async function tab(typed: string, completed: string): Promise<void> {
    await tmux('send-keys', '-t', SESSION, 'C-u', 'C-l');
    await waitForScreen((screen) => lastLine(screen) === '$', 'an empty prompt');
    await tmux('send-keys', '-t', SESSION, '-l', typed);
    await tmux('send-keys', '-t', SESSION, 'Tab');
    await waitForScreen((screen) => lastLine(screen) === `$ ${completed}`, `"${completed}"`);
  }

  it("completes a type, an id and a flag's value as TAB is pressed", async () => {
    await tab('cosi get appc', 'cosi get appconfig');
    await tab('cosi get app w', 'cosi get app web');
    await tab('cosi get --sort', 'cosi get --sort-by');
    // kubectl's --flag=value: readline splits the word at the =, the value is completed.
    await tab('cosi get app --output=ya', 'cosi get app --output=yaml');
    await tab('cosi get app -o=ya', 'cosi get app -o=yaml');
    await tab('cosi get --output=yaml app a', 'cosi get --output=yaml app api');
  });

  it('completes a command, a format or an id that is also a directory here as the word, not a path (review firsthour 1)', async () => {
    // cosi init writes test/: `cosi te` TAB gave `cosi test/`, an unknown command.
    await tab('cosi te', 'cosi test');
    await mkdir(path.join(project, 'yaml'));
    await mkdir(path.join(project, 'web'));
    try {
      await tab('cosi get app -o ya', 'cosi get app -o yaml');
      await tab('cosi get app we', 'cosi get app web');
    } finally {
      await rm(path.join(project, 'yaml'), { recursive: true });
      await rm(path.join(project, 'web'), { recursive: true });
    }
    // Files are still completed as files: a directory with its slash.
    await tab('cosi get -f manif', 'cosi get -f manifests/');
  });
});
