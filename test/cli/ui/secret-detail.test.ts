import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_SHOWN } from '../../../src/app/shown-spec.js';
import { resourceDetail } from '../../../src/cli/ui/resource-detail.js';
import { watchCopy, type WatchedCopy } from './watch-rounds.js';

const SECRET = `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
type: Opaque
stringData:
  password: TOPSECRET-PLAIN
data:
  token: VE9QU0VDUkVULUI2NA==
`;

let watched: WatchedCopy | undefined;
afterEach(async () => {
  await watched?.close();
  watched = undefined;
});

describe('the watch detail view of a Kubernetes Secret', () => {
  it('shows its keys but not its values, before and after an edit', async () => {
    watched = await watchCopy({
      before: (dir) => writeFile(path.join(dir, 'secret.yaml'), SECRET),
    });
    const view = await watched.edit('secret.yaml', 'TOPSECRET-PLAIN', 'TOPSECRET-EDITED');
    const group = view.groups.find((g) => g.type === 'Secrets.core');
    const row = group?.rows.find((r) => r.resource.metadata.id === 'db');
    expect(row?.marker).toBe('~');
    const text = resourceDetail(view, group!, row!, { stable: true })
      .map((l) => l.text)
      .join('\n');
    expect(text).not.toContain('TOPSECRET');
    expect(text).not.toContain('VE9QU0VDUkVU');
    expect(text).toMatch(new RegExp(`password: .${NOT_SHOWN.replace(/[()]/g, '\\$&')}.`));
    expect(text).toMatch(new RegExp(`token: .${NOT_SHOWN.replace(/[()]/g, '\\$&')}.`));
    expect(text).toContain('type: Opaque');
  });
});
