import { cli } from './test/cli/run-cli.ts';
const r = await cli(['check', '/work/main/fixtures/real-crds/cert-manager/crds', 'autoscaling/custom-compute-classes/reservations/ccc-any-reservation.yaml', '--schema-location', '/tmp/crds-catalog/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'], { cwd: '/tmp/GoogleCloudPlatform+kubernetes-engine-samples' });
console.log(r.code, r.stdout.slice(0, 600));
