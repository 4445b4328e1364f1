import { parseListenAddress, startOpsServer, type OpsServer } from '../../app/ops-server.js';
import type { RunHealth } from '../../app/run-health.js';
import type { RunMetrics } from '../../app/run-metrics.js';
import type { RunLog } from './run-log.js';
import type { RunFlags } from './run-plan.js';

/** Starts the metrics and health endpoints asked for: one server per address. */
export async function startEndpoints(
  flags: Pick<RunFlags, 'metricsAddr' | 'healthAddr'>,
  health: RunHealth,
  metrics: RunMetrics,
  refresh: () => Promise<void>,
  problems: () => readonly string[],
  servers: OpsServer[],
  log: RunLog,
): Promise<void> {
  const byAddress = new Map<
    string,
    { address: string; flag: string; routes: Record<string, () => unknown> }
  >();
  const add = (
    address: string | undefined,
    flag: string,
    routes: Record<string, () => unknown>,
  ) => {
    if (address === undefined || address === '0') return;
    // One server for one address however it is written (`:8080` and `0.0.0.0:8080`): two
    // would find the port taken, by the other.
    const { host, port } = parseListenAddress(address, flag);
    const key = `${host} ${port}`;
    const entry = byAddress.get(key) ?? { address, flag, routes: {} };
    Object.assign(entry.routes, routes);
    byAddress.set(key, entry);
  };
  add(flags.metricsAddr, '--metrics-addr', {
    '/metrics': async () => {
      await refresh();
      const { contentType, body } = await metrics.scrape();
      return { status: 200, contentType, body };
    },
  });
  add(flags.healthAddr, '--health-addr', {
    '/healthz': () => health.healthz(),
    '/readyz': async () => {
      // What is wrong with the leader's controllers now (a watch down, a failing controller).
      if (health.phase === 'leading') await refresh();
      return health.readyz(problems());
    },
  });
  for (const { address, flag, routes } of byAddress.values()) {
    const server = await startOpsServer(
      address,
      flag,
      routes as Parameters<typeof startOpsServer>[2],
    );
    servers.push(server);
    log.info(`serving ${Object.keys(routes).join(', ')} on http://${server.address}`, {
      address: server.address,
    });
  }
}
