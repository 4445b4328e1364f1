import { describe, expect, it } from 'vitest';
import { dependsOnTypescript, installCommand } from '../../src/app/init/install-command.js';

const OWN = { hasPackageJson: true };
const NONE = { hasPackageJson: false };

describe('the install line cosi init ends with', () => {
  it('installs the running cosi by its path, and TypeScript', () => {
    expect(installCommand('/home/me/proj', '/home/me/src/cosi', OWN)).toBe(
      'npm install --save-dev /home/me/src/cosi typescript',
    );
    expect(installCommand('/home/me/proj', '/home/me/proj/vendor/cosi', OWN)).toBe(
      'npm install --save-dev /home/me/proj/vendor/cosi typescript',
    );
  });

  it('makes the project a package first when it has no package.json, so npm installs there', () => {
    expect(installCommand('/home/me/proj', '/home/me/src/cosi', NONE)).toBe(
      'npm init -y && npm install --save-dev /home/me/src/cosi typescript',
    );
    // A cosi in the node_modules of a package above: that package is not the new project's.
    expect(installCommand('/home/me/repo/demo', '/home/me/repo/node_modules/cosi', NONE)).toBe(
      'npm init -y && npm install --save-dev <the cosi .tgz you installed> typescript',
    );
  });

  it('installs TypeScript alone when the project sees that cosi in a node_modules already', () => {
    expect(installCommand('/home/me/proj', '/home/me/proj/node_modules/cosi', OWN)).toBe(
      'npm install --save-dev typescript',
    );
    // A workspace's member, with a package.json of its own.
    expect(installCommand('/home/me/repo/proj', '/home/me/repo/node_modules/cosi', OWN)).toBe(
      'npm install --save-dev typescript',
    );
  });

  it("never links another package's node_modules/cosi (a global install, another project's): it names the tarball", () => {
    expect(installCommand('/home/me/proj', '/usr/lib/node_modules/cosi', OWN)).toBe(
      'npm install --save-dev <the cosi .tgz you installed> typescript',
    );
    expect(installCommand('/home/me/proj', '/home/me/other/node_modules/cosi', NONE)).toBe(
      'npm init -y && npm install --save-dev <the cosi .tgz you installed> typescript',
    );
  });

  it('names the tarball another package installed this cosi from, when it is known', () => {
    expect(
      installCommand('/home/me/proj', '/home/me/other/node_modules/cosi', {
        ...NONE,
        tarball: '/home/me/dl/cosi-0.1.0.tgz',
      }),
    ).toBe('npm init -y && npm install --save-dev /home/me/dl/cosi-0.1.0.tgz typescript');
    // A cosi run from its own directory is installed from there, whatever else is known.
    expect(
      installCommand('/home/me/proj', '/home/me/src/cosi', {
        ...OWN,
        tarball: '/home/me/dl/cosi-0.1.0.tgz',
      }),
    ).toBe('npm install --save-dev /home/me/src/cosi typescript');
  });

  it("never depends on npx's cache, which npm clears: it names the package to install", () => {
    expect(installCommand('/home/me/proj', '/root/.npm/_npx/0a1b2c/node_modules/cosi', OWN)).toBe(
      'npm install --save-dev <the cosi .tgz you ran with npx> typescript',
    );
    // npx said which tarball it ran (npm_config_package): that one, a line to paste as it is.
    expect(
      installCommand('/home/me/proj', '/root/.npm/_npx/0a1b2c/node_modules/cosi', {
        ...NONE,
        tarball: '/home/me/dl/cosi-0.1.0.tgz',
      }),
    ).toBe('npm init -y && npm install --save-dev /home/me/dl/cosi-0.1.0.tgz typescript');
  });

  it('leaves out TypeScript when the project depends on it already, and the line when nothing is left', () => {
    const withTypescript = { ...OWN, hasTypescript: true };
    expect(installCommand('/home/me/proj', '/home/me/src/cosi', withTypescript)).toBe(
      'npm install --save-dev /home/me/src/cosi',
    );
    expect(
      installCommand('/home/me/proj', '/home/me/proj/node_modules/cosi', withTypescript),
    ).toBeUndefined();
    expect(dependsOnTypescript('{ "devDependencies": { "typescript": "^7.0.2" } }')).toBe(true);
    expect(dependsOnTypescript('{ "dependencies": { "typescript": "5.9.3" } }')).toBe(true);
    expect(dependsOnTypescript('{ "devDependencies": { "typescript-eslint": "8" } }')).toBe(false);
    expect(dependsOnTypescript('{ not json')).toBe(false);
  });

  it('quotes a path the shell would split', () => {
    expect(installCommand('/home/me/proj', "/home/me/my tools/cosi's", OWN)).toBe(
      "npm install --save-dev '/home/me/my tools/cosi'\\''s' typescript",
    );
  });
});
