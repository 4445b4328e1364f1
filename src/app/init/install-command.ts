import * as path from 'node:path';

/**
 * The command that makes a new project's own cosi and TypeScript its dev dependencies, for the
 * lines `cosi init` ends with: `npx cosi` and the CI job then run the version the lock file pins,
 * and an editor types `cosi.config.ts` from its package. cosi is not on the npm registry, so the
 * cosi is the one running, by its package root's absolute path (`cosiRoot`): npm installs a
 * directory as a link to it. When that cosi is in the project's own `node_modules`, or in one
 * above it and the project has a `package.json` of its own (a workspace's member), TypeScript
 * alone is left to install. A project with no `package.json` gets one first (`npm init -y`):
 * else npm would install into the package above it, and the CI job's `npm ci` finds no lock file.
 * A cosi run from npx's cache, or from another package's `node_modules` (another project's, a
 * global install), is no place to depend on: npm clears the cache, and the other package's
 * reinstall or removal breaks the link (and its dependencies are that package's). The line then
 * names the package to install, the tarball cosi came as, instead (`tarball`: the one npx or that
 * package installed it from, when known), else a placeholder. TypeScript is left out when the project's
 * `package.json` already depends on it, and the line is `undefined` when nothing is left.
 *
 * @example
 * installCommand('/home/me/proj', '/home/me/src/cosi', { hasPackageJson: true })
 * // 'npm install --save-dev /home/me/src/cosi typescript'
 */
export function installCommand(
  projectDir: string,
  cosiRoot: string,
  {
    hasPackageJson,
    hasTypescript = false,
    tarball,
  }: {
    readonly hasPackageJson: boolean;
    /** Whether the project's `package.json` lists `typescript` among its dependencies. */
    readonly hasTypescript?: boolean;
    /**
     * The tarball this cosi was installed from (`npx ./cosi-0.1.0.tgz`, `npm install
     * ../cosi-0.1.0.tgz` in another package), absolute, when known.
     */
    readonly tarball?: string;
  },
): string | undefined {
  const project = path.resolve(projectDir);
  const root = path.resolve(cosiRoot);
  const modules = path.dirname(root);
  const inModules = path.basename(modules) === 'node_modules';
  const owner = path.dirname(modules);
  const init = hasPackageJson ? '' : 'npm init -y && ';
  const typescript = hasTypescript ? '' : ' typescript';
  if (inModules && (owner === project || (hasPackageJson && isWithin(project, owner)))) {
    return hasTypescript ? undefined : 'npm install --save-dev typescript';
  }
  const cached = root.split(path.sep).includes('_npx');
  const cosi =
    !cached && !inModules
      ? shellWord(root)
      : tarball !== undefined
        ? shellWord(tarball)
        : cached
          ? '<the cosi .tgz you ran with npx>'
          : '<the cosi .tgz you installed>';
  return `${init}npm install --save-dev ${cosi}${typescript}`;
}

/** Whether a package.json's text lists `typescript` in its dependencies or devDependencies. */
export function dependsOnTypescript(packageJson: string): boolean {
  try {
    const manifest = JSON.parse(packageJson) as Record<string, unknown>;
    return ['dependencies', 'devDependencies'].some((key) => {
      const deps = manifest[key];
      return typeof deps === 'object' && deps !== null && 'typescript' in deps;
    });
  } catch {
    return false;
  }
}

/** `word` as one word of a POSIX shell's line: quoted when it has more than plain characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Whether `dir` is `ancestor` or below it. */
function isWithin(dir: string, ancestor: string): boolean {
  const relative = path.relative(ancestor, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
