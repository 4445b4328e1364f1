/**
 * A project whose controller throws for images from quay.io, for the test of where cosi/testing
 * places a controller's error when the test imports this module too. The interfaces and type
 * annotations below are what makes vitest's transform of this file differ from the one cosi's
 * loader runs: their lines are gone from vitest's output, so its source map, applied to the
 * frames of the copy cosi's loader runs (whose lines are this file's own), moves them to lines
 * below. The resource defined after the controller keeps the throw's line inside that map.
 */
import { createTransformController, defineConfig, defineResource } from 'cosi';

/** An application. */
export interface AppSpec {
  /** Its container image. */
  image: string;
}

/** Where an application's image comes from. */
export interface RegistrySpec {
  /** The registry's host name. */
  registry: string;
}

export const App = defineResource<AppSpec>({
  type: 'Apps.place.test.cosi.dev',
  aliases: ['app'],
  defaultSpec: (): AppSpec => ({ image: '' }),
});

export const Registry = defineResource<RegistrySpec>({
  type: 'Registries.place.test.cosi.dev',
  defaultSpec: (): RegistrySpec => ({ registry: '' }),
});

const registryController = createTransformController({
  name: 'place.RegistryController',
  input: App,
  output: Registry,
  mapMetadata: (app) => Registry.create(app.metadata.id),
  transform: (_ctx, app, out): void => {
    const host: string = app.spec.image.split('/')[0] ?? '';
    if (host === 'quay.io') throw new Error('quay.io is not allowed');
    out.spec.registry = host;
  },
});

/** A mirror of a registry: defined after the controller, so this file goes on below its throw. */
export const Mirror = defineResource<RegistrySpec>({
  type: 'Mirrors.place.test.cosi.dev',
  defaultSpec: (): RegistrySpec => ({ registry: '' }),
  printColumns: [
    { name: 'Registry', jsonPath: '{.registry}' },
    { name: 'Registry host', jsonPath: '{.registry}' },
    { name: 'Registry name', jsonPath: '{.registry}' },
    { name: 'Registry URL', jsonPath: '{.registry}' },
    { name: 'Registry mirror', jsonPath: '{.registry}' },
    { name: 'Registry source', jsonPath: '{.registry}' },
    { name: 'Registry origin', jsonPath: '{.registry}' },
  ],
});

export default defineConfig({
  definitions: [App, Registry, Mirror],
  controllers: [registryController],
});
