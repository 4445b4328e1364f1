import { describe, expect, it } from 'vitest';
import { installCommand } from '../../src/app/init/install-command.js';

describe('the install line cosi init ends with', () => {
  it('installs the running cosi by its path, and TypeScript', () => {
    expect(installCommand('/home/me/proj', '/home/me/src/cosi')).toBe(
      'npm install --save-dev /home/me/src/cosi typescript',
    );
    expect(installCommand('/home/me/proj', '/home/me/proj/vendor/cosi')).toBe(
      'npm install --save-dev /home/me/proj/vendor/cosi typescript',
    );
  });

  it('installs TypeScript alone when the project sees that cosi in a node_modules already', () => {
    expect(installCommand('/home/me/proj', '/home/me/proj/node_modules/cosi')).toBe(
      'npm install --save-dev typescript',
    );
    expect(installCommand('/home/me/repo/proj', '/home/me/repo/node_modules/cosi')).toBe(
      'npm install --save-dev typescript',
    );
  });

  it("installs a cosi from another place's node_modules (a global install, npx's cache) by path", () => {
    expect(installCommand('/home/me/proj', '/usr/lib/node_modules/cosi')).toBe(
      'npm install --save-dev /usr/lib/node_modules/cosi typescript',
    );
    expect(installCommand('/home/me/proj', '/home/me/other/node_modules/cosi')).toBe(
      'npm install --save-dev /home/me/other/node_modules/cosi typescript',
    );
  });

  it('quotes a path the shell would split', () => {
    expect(installCommand('/home/me/proj', "/home/me/my tools/cosi's")).toBe(
      "npm install --save-dev '/home/me/my tools/cosi'\\''s' typescript",
    );
  });
});
