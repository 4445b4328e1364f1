/**
 * The files of the starter project `cosi init` writes: a config with a type and one controller,
 * a manifest, the golden tree of the state the run converges to, a test of the controller with
 * `cosi/testing` and Node's own test runner, and a CI job that runs both. The golden files are
 * what `cosi check --expect expected/ --update` records for this manifest (a test keeps them so).
 */

/** A file of the starter project: its path relative to the project, and its text. */
export interface StarterFile {
  readonly path: string;
  readonly text: string;
  /**
   * Written only when the project has none, kept when it has (a repository that already has
   * a `tsconfig.json` keeps its own): never a reason to refuse.
   */
  readonly unlessThere?: boolean;
  /**
   * The directory `path` is relative to, when it is not the project: the repository's root, for
   * a CI job of a project in a subdirectory (GitHub reads workflows only from the root's
   * `.github/workflows`).
   */
  readonly base?: string;
}

const CONFIG = `/**
 * The project's config: the types its manifests and controllers use, and the controllers.
 *
 *   npx cosi check            validate the manifests and run the controllers
 *   npx cosi get appconfig    what the controller made
 *   npx cosi graph            which controller reads and writes which type
 */
import { createTransformController, defineConfig, defineResource } from 'cosi';

/** An application, as the manifests declare it (a manifest may leave replicas out). */
export interface AppSpec {
  image: string;
  replicas?: number;
}

export const App = defineResource<AppSpec>({
  type: 'Apps.example.org',
  defaultSpec: () => ({ image: '', replicas: 1 }),
  printColumns: [
    { name: 'Image', jsonPath: '{.image}' },
    { name: 'Replicas', jsonPath: '{.replicas}' },
  ],
  schema: {
    type: 'object',
    required: ['image'],
    additionalProperties: false,
    properties: {
      image: { type: 'string', minLength: 1 },
      replicas: { type: 'integer', minimum: 0 },
    },
  },
});

/** What the controller derives from each App: the settings its containers would run with. */
export interface AppConfigSpec {
  image: string;
  replicas: number;
  /** Where the image comes from: the part of \`image\` before its first slash, or docker.io. */
  registry: string;
}

export const AppConfig = defineResource<AppConfigSpec>({
  type: 'AppConfigs.example.org',
  defaultSpec: () => ({ image: '', replicas: 0, registry: '' }),
  printColumns: [{ name: 'Registry', jsonPath: '{.registry}' }],
});

/** App -> AppConfig, one for one, updated whenever the App changes and removed with it. */
const appConfigController = createTransformController({
  name: 'example.AppConfigController',
  input: App,
  output: AppConfig,
  mapMetadata: (app) => AppConfig.create(app.metadata.id),
  transform: (_ctx, app, config) => {
    config.spec.image = app.spec.image;
    config.spec.replicas = app.spec.replicas ?? 1;
    const [first = '', ...rest] = app.spec.image.split('/');
    config.spec.registry = rest.length > 0 ? first : 'docker.io';
  },
});

export default defineConfig({
  manifests: ['manifests'],
  definitions: [App, AppConfig],
  controllers: [appConfigController],
});
`;

const MANIFEST = `# The project's resources: one document each, of any type the config defines (or any alias).
metadata:
  type: app
  id: web
  labels:
    tier: frontend
spec:
  image: nginx
  replicas: 2
---
metadata:
  type: app
  id: api
spec:
  image: ghcr.io/example/api
  replicas: 3
`;

const GOLDEN_APP_CONFIGS = `---
metadata:
  namespace: default
  type: AppConfigs.example.org
  id: api
  owner: example.AppConfigController
  phase: running
spec:
  image: ghcr.io/example/api
  replicas: 3
  registry: ghcr.io
---
metadata:
  namespace: default
  type: AppConfigs.example.org
  id: web
  owner: example.AppConfigController
  phase: running
spec:
  image: nginx
  replicas: 2
  registry: docker.io
`;

const GOLDEN_APPS = `---
metadata:
  namespace: default
  type: Apps.example.org
  id: api
  owner: ""
  phase: running
spec:
  image: ghcr.io/example/api
  replicas: 3
---
metadata:
  namespace: default
  type: Apps.example.org
  id: web
  owner: ""
  phase: running
  labels:
    tier: frontend
spec:
  image: nginx
  replicas: 2
`;

/**
 * The controller's test, with `cosi/testing` in Node's own runner (`node --test` finds it; no
 * dependency to add): plain JavaScript, which every Node cosi runs on takes as it is. It compares
 * the state with the same golden tree as the CI job's check, and tests a case the manifests do
 * not have.
 */
const EXAMPLE_TEST = `/**
 * The controller's tests, with cosi's testing library (cosi/testing) in Node's own test runner:
 *
 *   node --test                          run them
 *   COSI_UPDATE_GOLDEN=1 node --test     record the golden tree (expected/) after a deliberate change
 *
 * The library works the same in vitest or jest (and import 'cosi/testing/matchers' for their
 * expect(project).toHaveResource(...)); in a .ts test, the config's handles (App, AppConfig)
 * type-check the expected specs. See cosi's docs/testing.md.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createTestProject,
  expectConverged,
  expectGolden,
  expectNoResource,
  expectResource,
} from 'cosi/testing';

test('the manifests converge to the golden tree in expected/', async () => {
  // The project as cosi check runs it: cosi.config.ts and the manifests it names.
  const project = await createTestProject();
  try {
    expectConverged(await project.converge());
    await expectGolden(project, 'expected');
  } finally {
    await project.close();
  }
});

test('an App gets the registry of its image, and its AppConfig goes with it', async () => {
  // The config's types and controller, with no manifest but the ones the test applies.
  const project = await createTestProject({ manifests: [] });
  try {
    await project.apply(
      'metadata: { type: app, id: db }\\nspec: { image: quay.io/example/postgres }\\n',
    );
    expectConverged(await project.converge());
    await expectResource(project, 'appconfig', 'db', { registry: 'quay.io', replicas: 1 });

    await project.destroy('app', ['db']);
    await project.converge();
    await expectNoResource(project, 'appconfig', 'db');
  } finally {
    await project.close();
  }
});

test('one pass of the controller alone makes an AppConfig for each App', async () => {
  // The manifests loaded, nothing run: reconcileOnce runs this one controller once, as
  // controller-runtime's tests call Reconcile, and says what it wrote.
  const project = await createTestProject();
  try {
    const pass = await project.reconcileOnce('example.AppConfigController');
    assert.ifError(pass.error);
    assert.deepEqual(
      pass.created.map((r) => \`\${r.type}/\${r.id}\`),
      ['AppConfigs.example.org/api', 'AppConfigs.example.org/web'],
    );
    await expectResource(project, 'appconfig', 'api', { registry: 'ghcr.io', replicas: 3 });
  } finally {
    await project.close();
  }
});
`;

/**
 * The CI job; for a project in a subdirectory of its repository (`workingDirectory`, relative to
 * the root, where the job is), its steps run there.
 */
export function ciJob(workingDirectory?: string): string {
  const defaults =
    workingDirectory === undefined
      ? ''
      : `    # The project is in ${workingDirectory}: its steps run there.
    defaults:
      run:
        working-directory: ${JSON.stringify(workingDirectory)}
`;
  return `# Checks the manifests and the controllers on every push and pull request, and type-checks the
# config and its modules with the project's TypeScript: findings become annotations on the
# changed lines; then runs the controller's tests (test/, node --test). After a deliberate
# change, record the new expectations with
#   npx cosi check --expect expected --update
# It runs the cosi that package-lock.json pins: the install line cosi init ends with writes
# package.json and package-lock.json; commit both. cosi is not on the npm registry, and a cosi
# installed from a directory outside this repository is not on the runner: keep its tarball in
# the repository (npm pack in cosi's directory) and install that instead, for example
#   npm install --save-dev ./vendor/cosi-<version>.tgz
name: cosi
on: [push, pull_request]
jobs:
  check:
    runs-on: ubuntu-latest
${defaults}    steps:
      - uses: actions/checkout@v6
      - uses: actions/setup-node@v6
        with:
          node-version: 24
      - run: npm ci
      - run: npx cosi check --expect expected --typecheck -o github
      - run: node --test
`;
}

/**
 * The compiler's options for the config and its controllers, so that an editor, `npx tsc` and
 * `cosi check --typecheck` agree. A bundler's resolution (`moduleResolution: bundler`, with
 * `module: esnext`, which TypeScript 5.0 takes; `preserve` needs 5.4) is how cosi loads a
 * config: `.js` imports of `.ts` files, ES modules whatever package.json says (`tsc --init`'s
 * NodeNext with `verbatimModuleSyntax` refuses the config's imports in a package without
 * `"type": "module"`).
 */
const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      noEmit: true,
      skipLibCheck: true,
    },
    include: ['**/*.ts'],
  },
  null,
  2,
)}
`;

/** What `cosi check .` (any walk of the project) leaves out: the golden files are no manifests. */
const COSIIGNORE = `# Paths no walk of this project reads as manifests (gitignore syntax).
# The golden files cosi check --expect expected compares the state with:
expected/
`;

/**
 * The directories the starter project reads whole: every manifest of `manifests/` (the config
 * names it) and every golden file of `expected/` (`cosi check --expect expected`). A file of the
 * user's in one would be read as the project's, and the starter would not pass `cosi check`.
 */
export const STARTER_READ_WHOLE: readonly string[] = ['manifests', 'expected'];

/** Where the CI job goes, in the repository's root (the project's, when it is one). */
export const CI_JOB_PATH = '.github/workflows/cosi.yml';

/** The starter project's files, in the order they are written. */
export const STARTER_FILES: readonly StarterFile[] = [
  { path: 'cosi.config.ts', text: CONFIG },
  { path: 'manifests/apps.yaml', text: MANIFEST },
  { path: 'expected/AppConfigs.example.org.yaml', text: GOLDEN_APP_CONFIGS },
  { path: 'expected/Apps.example.org.yaml', text: GOLDEN_APPS },
  { path: 'test/apps.test.mjs', text: EXAMPLE_TEST },
  { path: CI_JOB_PATH, text: ciJob() },
  { path: '.cosiignore', text: COSIIGNORE, unlessThere: true },
  { path: 'tsconfig.json', text: TSCONFIG, unlessThere: true },
];
