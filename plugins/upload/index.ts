import { definePlugin } from '../../core/kernel/plugin.ts';
import { fileContentType } from './file-schema.ts';

/**
 * The upload plugin. It owns the `plugin::upload.file` content-type that media attributes
 * point at; the upload routes, providers and image formats come with it.
 */
export const uploadPlugin = definePlugin({
  name: 'upload',
  register(app) {
    app.registry.addContentType(fileContentType);
    return {};
  },
});
