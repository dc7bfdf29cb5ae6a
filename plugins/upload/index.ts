import { definePlugin, restApiConfig } from '../../core/index.ts';
import { uploadConfigSchema } from './config.ts';
import { fileContentType } from './file-schema.ts';
import { loadProvider, uploadsDir } from './providers.ts';
import { uploadResponseHeaders } from './serve.ts';
import { createUploadService, type UploadService } from './service.ts';
import { createUploadControllers } from './controllers.ts';

/** Room in an upload's body for its form fields (fileInfo, ref…) and multipart framing. */
const FORM_OVERHEAD = 1024 * 1024;

export interface UploadApi {
  service: UploadService;
  /** the largest upload (bytes), for other endpoints that take files (GraphQL's multipart requests) */
  sizeLimit: number;
  /** room to drain beyond the files when an upload is refused before its form is read */
  bodyLimit: number;
}

/**
 * The upload plugin: the media library (`plugin::upload.file` documents), a provider for the
 * bytes (`local` by default: `<app>/public/uploads`, served at `/uploads`), image formats, and
 * Strapi's upload routes under the REST prefix.
 */
export const uploadPlugin = definePlugin({
  name: 'upload',
  async register(app): Promise<UploadApi> {
    const config = app.pluginConfig('upload', uploadConfigSchema);
    app.registry.addContentType(fileContentType);
    // the provider is only set up here (no database yet): the service reaches the pool when called
    const { name, provider } = await loadProvider(config.provider, config.providerOptions, app.publicDir);
    const service = createUploadService(app, config, provider, name);
    // whichever provider is configured: files left in public/uploads are still served from there
    app.server.use(uploadResponseHeaders(uploadsDir(app.publicDir)));

    const rest = restApiConfig(app.config);
    const prefix = rest.prefix;
    // Strapi's file list is a bare array: no count
    const queries = { pagination: { ...rest.pagination, withCount: false }, limits: rest.limits };
    const controllers = createUploadControllers(app, service, config.sizeLimit, queries);
    const routes: Array<['GET' | 'POST' | 'DELETE', string, keyof typeof controllers]> = [
      ['POST', `${prefix}/upload`, 'upload'],
      ['GET', `${prefix}/upload/files`, 'find'],
      ['GET', `${prefix}/upload/files/:id`, 'findOne'],
      ['DELETE', `${prefix}/upload/files/:id`, 'destroy'],
    ];
    app.endpoints.add({ name: 'Media library', path: `${prefix}/upload/files` });
    // an upload refused before its form is read (403, say) is still read to the end, up to what it may hold
    // (its files, plus room for the other fields and the form's framing), so the client gets the answer
    const bodyLimit = config.sizeLimit + FORM_OVERHEAD;
    for (const [method, routePath, action] of routes) {
      app.server.route({
        method,
        path: routePath,
        handler: (ctx) => controllers[action](ctx),
        // file reads are cached (their handlers name what they read)
        config: { action: `plugin::upload.content-api.${action}`, cache: method === 'GET' },
        bodyLimit: method === 'POST' ? bodyLimit : undefined,
      });
    }
    return { service, sizeLimit: config.sizeLimit, bodyLimit };
  },
});
