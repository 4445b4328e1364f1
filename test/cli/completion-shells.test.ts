/**
 * The zsh and fish completion scripts in the real shells, completing from a real project (as
 * completion-dynamic.test.ts does for bash): each script calls the built `bin/cosi.js` through a
 * `cosi` shell function for the project's types, aliases and ids.
 *
 * zsh completes only in its line editor, so an interactive zsh runs on a pseudo-terminal (zsh's
 * own zpty module), with the real completion system (compinit, the script installed in `fpath`
 * as `_cosi`); a wrapper of `compadd` prints each word the completion offers, after zsh's own
 * matching against what was typed, and the end of the completion ends the shell. fish answers
 * `complete -C LINE` with what it would offer. Every run is bounded (the shells are killed at
 * 60 s, the zsh driver stops reading at the end marker).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStarterProject } from '../../src/app/init/write-starter-project.js';
import { cli, REPO } from './run-cli.js';

let dir: string;
let project: string;

const COSI = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO, 'bin/cosi.js'))}`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-completion-shells-'));
  project = path.join(dir, 'project');
  await mkdir(path.join(project, '.git'), { recursive: true });
  await writeStarterProject(project);
  await mkdir(path.join(dir, 'zsh'));
  await writeFile(path.join(dir, 'zsh/_cosi'), (await cli(['completion', 'zsh'])).stdout);
  await writeFile(path.join(dir, 'cosi.fish'), (await cli(['completion', 'fish'])).stdout);
  await writeFile(path.join(dir, 'zsh-setup.zsh'), zshSetup(path.join(dir, 'zsh')));
  await writeFile(path.join(dir, 'zsh-drive.zsh'), ZSH_DRIVER);
  await writeFile(
    path.join(dir, 'other.yaml'),
    'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: hosts.example.org }\nspec: { type: Hosts.example.org }\n---\nmetadata: { type: host, id: node-a }\nspec: {}\n',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Sourced by the interactive zsh: the completion system, the script, and the recording. */
const zshSetup = (fpathDir: string): string => `PS1=''
RPS1=''
fpath=(${JSON.stringify(fpathDir)} $fpath)
autoload -U compinit && compinit -u -D
cosi() { ${COSI} "$@" }
compadd() {
  # Asked for matches into an array (-O, -A, -D): the completion system's own bookkeeping.
  if (( \${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
  local -a __offered
  builtin compadd -A __offered "$@"
  local w
  for w in "\${__offered[@]}"; do print -r -- "OFFERED:$w"; done
}
__cosi_test_end() { print -r -- 'COMPLETION-END'; exit 0 }
comppostfuncs=(__cosi_test_end)
bindkey '^I' complete-word
print -r -- 'SETUP-DONE'
`;

/** Runs an interactive zsh on a pseudo-terminal, types `$2` and a TAB, prints what it shows. */
const ZSH_DRIVER = `zmodload zsh/zpty
zpty completion zsh -f -i
zpty -w completion "source \${1:q}"
local out='' chunk
while zpty -r completion chunk; do out+=$chunk; [[ $out == *SETUP-DONE* ]] && break; done
zpty -w -n completion "$2"$'\\t'
out=''
while zpty -r completion chunk; do out+=$chunk; [[ $out == *COMPLETION-END* ]] && break; done
print -r -- "$out"
zpty -d completion
`;

/** What zsh offers for the line typed so far (the cursor at its end), in `cwd`. */
function zsh(line: string, cwd = project): string[] {
  const result = spawnSync(
    'zsh',
    ['-f', path.join(dir, 'zsh-drive.zsh'), path.join(dir, 'zsh-setup.zsh'), line],
    { cwd, encoding: 'utf8', timeout: 60_000 },
  );
  expect(result.stdout).toContain('COMPLETION-END');
  // The first word follows the echo of the typed line on the terminal's line.
  return [...result.stdout.matchAll(/OFFERED:([^\r\n]*)/g)].map((m) => m[1] ?? '');
}

/** What fish offers for the line typed so far, in `cwd` (the words, without descriptions). */
function fish(line: string, cwd = project): string[] {
  const program = [
    `function cosi; ${COSI} $argv; end`,
    `source ${JSON.stringify(path.join(dir, 'cosi.fish'))}`,
    `complete -C ${JSON.stringify(line)}`,
  ].join('\n');
  const result = spawnSync('fish', ['--no-config', '-c', program], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t')[0] ?? '');
}

/** The words offered, sorted. fish matches case-insensitively: `appc` offers `AppConfigs...` too. */
const offered = (words: string[]): string[] => words.sort();

describe.each([
  ['zsh', zsh, false],
  ['fish', fish, true],
] as const)('completion in %s', (_shell, complete, ignoresCase) => {
  it("completes get's type from the project's types and aliases", () => {
    expect(complete('cosi get ')).toEqual(
      expect.arrayContaining(['Apps.example.org', 'app', 'appconfig', 'AppConfigs.example.org']),
    );
    expect(offered(complete('cosi get appc'))).toEqual(
      ignoresCase ? ['AppConfigs.example.org', 'appconfig'] : ['appconfig'],
    );
    expect(complete('cosi explain Apps.')).toEqual(['Apps.example.org']);
  }, 120_000);

  it('completes the id of the type given, after a run (controller outputs too)', () => {
    expect(offered(complete('cosi get app '))).toEqual(['api', 'web']);
    expect(complete('cosi get appconfig w')).toEqual(['web']);
    expect(complete('cosi get -o name app a')).toEqual(['api']);
    // get takes several ids (kubectl's habit), explain one.
    expect(complete('cosi get app api w')).toEqual(['web']);
    expect(complete('cosi explain app api w')).not.toContain('web');
  }, 120_000);

  it('asks the project the -f given on the line names', () => {
    expect(offered(complete('cosi get -f ../other.yaml ho'))).toEqual(
      ignoresCase ? ['Hosts.example.org', 'host'] : ['host'],
    );
    expect(complete('cosi get -f ../other.yaml host ')).toEqual(['node-a']);
    // kubectl's flag=value, -f=PATH too.
    expect(offered(complete('cosi get -f=../other.yaml ho'))).toEqual(
      ignoresCase ? ['Hosts.example.org', 'host'] : ['host'],
    );
    expect(complete('cosi get --file=../other.yaml host ')).toEqual(['node-a']);
  }, 120_000);

  it('completes the value after --output= and -o=, which is no type', () => {
    // fish offers the whole word, zsh the value after the = (it keeps what was typed before).
    const value = (flag: string, words: string[]): string[] =>
      ignoresCase ? words.map((w) => `${flag}=${w}`) : words;
    expect(offered(complete('cosi get app --output=json'))).toEqual(
      value('--output', ['json', 'jsonpath-as-json=', 'jsonpath=']),
    );
    // fish reads a short flag's value only as -oVALUE; zsh as kubectl, -o=VALUE too.
    expect(complete('cosi get app -o=ya')).toEqual(ignoresCase ? [] : ['yaml']);
    expect(offered(complete('cosi get --output=yaml app '))).toEqual(['api', 'web']);
  }, 120_000);

  it('completes commands, output formats after -o, and flags', () => {
    expect(offered(complete('cosi get app -o json'))).toEqual([
      'json',
      'jsonpath-as-json=',
      'jsonpath=',
    ]);
    expect(complete('cosi graph -o m')).toEqual(['mermaid']);
    expect(complete('cosi get --sort')).toEqual(['--sort-by']);
    expect(complete('cosi in')).toEqual(['init']);
  }, 120_000);

  it('completes the shell of cosi completion, and reads a -f path with a space (review cli3 L2)', async () => {
    expect(offered(complete('cosi completion '))).toEqual(['bash', 'fish', 'zsh']);
    await mkdir(path.join(dir, 'my dir'), { recursive: true });
    await writeFile(
      path.join(dir, 'my dir/other.yaml'),
      'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: hosts.example.org }\nspec: { type: Hosts.example.org }\n---\nmetadata: { type: host, id: node-b }\nspec: {}\n',
    );
    expect(complete('cosi get -f ../my\\ dir/other.yaml host ')).toEqual(['node-b']);
    expect(complete(`cosi get -f '../my dir/other.yaml' host `)).toEqual(['node-b']);
  }, 120_000);

  it("completes -n with the namespaces the project's resources are in", () => {
    const minimal = path.join(REPO, 'fixtures/minimal');
    expect(offered(complete(`cosi get -f ${minimal} vm -n `))).toEqual(['default', 'staging']);
    expect(complete(`cosi apply -f ${minimal} --namespace st`)).toEqual(['staging']);
  }, 120_000);

  it('completes nothing, quietly, where there is no project', async () => {
    const empty = path.join(dir, 'empty');
    await mkdir(path.join(empty, '.git'), { recursive: true });
    expect(complete('cosi get x', empty)).toEqual([]);
  }, 120_000);
});
