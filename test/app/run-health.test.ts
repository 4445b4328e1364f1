import { describe, expect, it } from 'vitest';
import { RunHealth } from '../../src/app/run-health.js';

describe("cosi run's health", () => {
  it('is live from the start, and ready only once it follows or has converged as leader', () => {
    const health = new RunHealth();
    expect(health.healthz().status).toBe(200);
    expect(health.readyz()).toMatchObject({
      status: 503,
      body: 'not ready: starting: applying the manifests\n',
    });
    health.following();
    // Campaigning, with no leader known: a lone process is about to lead, not ready to follow.
    expect(health.readyz()).toMatchObject({
      status: 503,
      body: 'not ready: campaigning: no leader to follow yet\n',
    });
    health.followsLeader();
    expect(health.readyz()).toMatchObject({ status: 200, body: 'ok: following: ready to lead\n' });
    health.leading();
    expect(health.readyz()).toMatchObject({
      status: 503,
      body: 'not ready: leading: converging\n',
    });
    health.converged();
    expect(health.readyz()).toMatchObject({ status: 200, body: 'ok: leading: converged\n' });
  });

  it('as leader, is not ready while something is wrong with its controllers, and ready again after', () => {
    const health = new RunHealth();
    health.following();
    health.leading();
    health.converged();
    const problems = ['controller A is failing: boom', 'the watch of B (namespace "") is down: x'];
    expect(health.readyz(problems)).toMatchObject({
      status: 503,
      body: `not ready: leading: ${problems.join('; ')}\n`,
    });
    expect(health.readyz([])).toMatchObject({ status: 200, body: 'ok: leading: converged\n' });
  });

  it('is not ready once it stops, whatever it was, and stays so', () => {
    const health = new RunHealth();
    health.following();
    health.leading();
    health.converged();
    health.stopping();
    health.leading();
    expect(health.phase).toBe('stopping');
    expect(health.readyz()).toMatchObject({ status: 503, body: 'not ready: stopping\n' });
    expect(health.healthz().status).toBe(200);
  });

  it('restarting (run --watch), is not ready until it has led and converged again; down, says why', () => {
    const health = new RunHealth();
    health.following();
    health.leading();
    health.converged();
    health.restarting();
    // Said as a restart, not as the first start (review runsvc 3).
    expect(health.readyz()).toMatchObject({
      status: 503,
      body: 'not ready: restarting: loading the changed files and applying the manifests\n',
    });
    health.following();
    health.leading();
    expect(health.readyz()).toMatchObject({
      status: 503,
      body: 'not ready: leading: converging\n',
    });
    health.down('the config cannot be loaded: waiting for a change of the files');
    expect(health.readyz()).toMatchObject({
      status: 503,
      body: 'not ready: not running: the config cannot be loaded: waiting for a change of the files\n',
    });
    expect(health.healthz().status).toBe(200);
    health.restarting();
    health.following();
    health.leading();
    health.converged();
    expect(health.readyz()).toMatchObject({ status: 200, body: 'ok: leading: converged\n' });
    health.stopping();
    health.restarting();
    expect(health.phase).toBe('stopping');
  });

  it('a follower that lost its place in the election is not ready until it holds one again', () => {
    const health = new RunHealth();
    health.following();
    health.followsLeader();
    health.lostPlace('etcd unreachable at 127.0.0.1:2379');
    expect(health.readyz()).toMatchObject({
      status: 503,
      body: 'not ready: lost its place in the election: etcd unreachable at 127.0.0.1:2379; campaigning again\n',
    });
    health.rejoined();
    expect(health.readyz()).toMatchObject({ status: 200, body: 'ok: following: ready to lead\n' });
    // Elected meanwhile: it holds the place it leads from.
    health.lostPlace('its lease expired');
    health.leading();
    health.converged();
    expect(health.readyz()).toMatchObject({ status: 200, body: 'ok: leading: converged\n' });
  });
});
