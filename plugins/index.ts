import type { Plugin } from '../core/kernel/plugin.ts';
import { restPlugin } from './rest/index.ts';
import { uploadPlugin } from './upload/index.ts';

/** The plugins every Vellum app gets, in load order (config/plugins can disable them). */
export const builtinPlugins = (): Plugin<any>[] => [uploadPlugin, restPlugin];
