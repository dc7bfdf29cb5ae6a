import { definePlugin, type HttpMethod, restApiConfig } from '../../core/index.ts';
import { createControllers, type Controllers } from './controllers.ts';
import { loadRouterFiles, routerFor, withRouteConfig } from './route-files.ts';

/** method, path suffix, controller, permission action */
type RouteSpec = [HttpMethod, string, keyof Controllers, string];

const COLLECTION: RouteSpec[] = [
  ['GET', '', 'find', 'find'],
  ['POST', '', 'create', 'create'],
  ['GET', '/:documentId', 'findOne', 'findOne'],
  ['PUT', '/:documentId', 'update', 'update'],
  ['DELETE', '/:documentId', 'delete', 'delete'],
];
const SINGLE: RouteSpec[] = [
  ['GET', '', 'findOne', 'find'],
  ['PUT', '', 'update', 'update'],
  ['DELETE', '', 'delete', 'delete'],
];
/**
 * Publish, unpublish and discard-draft, which Strapi offers only in its admin and Document
 * Service, exposed as REST actions on draft & publish types (relative to a document's path).
 */
const VERSION_ACTIONS: RouteSpec[] = [
  ['POST', '/actions/publish', 'publish', 'publish'],
  ['POST', '/actions/unpublish', 'unpublish', 'unpublish'],
  ['POST', '/actions/discard-draft', 'discardDraft', 'discardDraft'],
];

/**
 * The REST content API: Strapi 5's routes under `api.rest.prefix` (default /api) for every
 * app content-type (`api::*`). Each route names its permission action (`<uid>.<action>`,
 * `find` for a single type's GET as Strapi does) for the auth plugin to check. An app's
 * `src/api/<api>/routes/*` core routers choose which of them exist and add policies and route
 * middlewares per action (route-files.ts).
 */
export const restPlugin = definePlugin({
  name: 'rest',
  register(app) {
    app.endpoints.add({ name: 'REST API', path: restApiConfig(app.config).prefix || '/', api: true });
    return {};
  },
  async bootstrap(app) {
    const rest = restApiConfig(app.config);
    const { prefix } = rest;
    const routers = await loadRouterFiles(app);
    for (const ct of app.registry.contentTypes()) {
      if (ct.origin !== 'api') continue;
      const controllers = createControllers(app, ct, rest);
      const single = ct.kind === 'singleType';
      const base = `${prefix}/${single ? ct.info.singularName : ct.info.pluralName}`;
      const specs = [...(single ? SINGLE : COLLECTION)];
      if (ct.options.draftAndPublish) {
        for (const [method, suffix, controller, action] of VERSION_ACTIONS)
          specs.push([method, (single ? '' : '/:documentId') + suffix, controller, action]);
      }
      const { entry, keeps } = routerFor(
        routers,
        ct,
        specs.map((s) => s[3]),
      );
      for (const [method, suffix, controller, action] of specs) {
        // a route the router leaves out is not there at all: 404 (or 405), as any unknown route
        if (!keeps(action)) continue;
        // reads are cached, unless the app's routes file adds policies or middlewares it runs on them
        const cache = method === 'GET' && !entry?.router.config?.[action];
        app.server.route({
          method,
          path: base + suffix,
          handler: withRouteConfig(app, entry, action, controllers[controller]),
          config: { action: `${ct.uid}.${action}`, cache },
        });
      }
    }
  },
});
