import { afterEach, describe, expect, it } from 'vitest';
import { resourceDetail } from '../../../src/cli/ui/resource-detail.js';
import type { RoundView } from '../../../src/cli/ui/round-view.js';
import { watchCopy, type WatchedCopy } from './watch-rounds.js';

let watched: WatchedCopy | undefined;
afterEach(async () => {
  await watched?.close();
  watched = undefined;
});

/** The "last writes" lines of a resource's detail view. */
function lastWrites(view: RoundView, type: string, id: string): string[] {
  const group = view.groups.find((g) => g.type === type);
  const row = group?.rows.find((r) => r.resource.metadata.id === id);
  if (!group || !row) throw new Error(`no ${type} ${id} in the round`);
  const lines = resourceDetail(view, group, row, { stable: true }).map((l) => l.text);
  const from = lines.indexOf('last writes');
  const to = lines.indexOf('', from);
  return lines.slice(from + 1, to).map((line) => line.trim());
}

describe("the watch detail view's last writes", () => {
  it("lists each round's manifest write of an edited resource, with the controllers' writes", async () => {
    watched = await watchCopy();
    const first = lastWrites(watched.views[0] as RoundView, 'VMs.example.org', 'db-1');
    expect(first.at(-1)).toMatch(/^v1 {2}manifest vms\.yaml:\d+:\d+$/);
    const second = await watched.edit('vms.yaml', 'image: postgres', 'image: mariadb');
    const row = second.groups
      .find((g) => g.type === 'VMs.example.org')
      ?.rows.find((r) => r.resource.metadata.id === 'db-1');
    const version = row?.resource.metadata.version ?? 0;
    const writes = lastWrites(second, 'VMs.example.org', 'db-1');
    // Newest first: this round's edit is there, at the version the VM has now.
    expect(writes[0]).toMatch(new RegExp(`^v${version} {2}manifest vms\\.yaml:\\d+:\\d+$`));
    const third = await watched.edit('vms.yaml', 'image: mariadb', 'image: postgres');
    const again = lastWrites(third, 'VMs.example.org', 'db-1');
    expect(again[0]).toMatch(new RegExp(`^v${version + 1} {2}manifest vms\\.yaml:`));
    expect(again[1]).toBe(writes[0]);
  });
});
