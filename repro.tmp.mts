import { readFileSync } from 'node:fs';
import { readManifests } from './src/loaders/index.ts';
import { JsonSchemaKinds } from './src/loaders/kubernetes/json-schema-kinds.ts';
import { parseSchemaLocations } from './src/loaders/kubernetes/schema-location.ts';
const kinds = new JsonSchemaKinds({ locations: parseSchemaLocations(['/tmp/crds-catalog/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json']), read: (p) => { try { return { text: readFileSync(p, 'utf8') }; } catch { return { missing: true }; } }, release: '1.36' });
const r = await readManifests(['/work/main/fixtures/real-crds/cert-manager/crds', '/tmp/GoogleCloudPlatform+kubernetes-engine-samples/autoscaling/custom-compute-classes/reservations/ccc-any-reservation.yaml'], { cwd: '/', schemaKinds: kinds });
console.log(r.findings.filter((f) => f.severity === 'error').map((f) => f.code + ' ' + f.message.slice(0, 120)));
