import type { Plugin } from '../core/index.ts';
import { restPlugin } from './rest/index.ts';
import { uploadPlugin } from './upload/index.ts';
import { i18nPlugin } from './i18n/index.ts';
import { usersPermissionsPlugin } from './users-permissions/index.ts';
import { graphqlPlugin } from './graphql/index.ts';

/** The plugins every Vellum app gets, in load order (config/plugins can disable them). */
export const builtinPlugins = (): Plugin<unknown>[] => [
  uploadPlugin,
  i18nPlugin,
  usersPermissionsPlugin,
  restPlugin,
  // last: its schema is built from every other plugin's content-types
  graphqlPlugin as Plugin<unknown>,
];
