import type { App, AppLifecycle } from 'vellum';
import { graphqlPlugin } from 'vellum/plugins/graphql';
import { blogExtension } from './graphql/extension.ts';

/** `VELLUM_DEMO_CONTENT=false` (or 0, no, off) starts the blog empty; anything else fills a new one. */
const wantsDemoContent = (env: App['env']): boolean =>
  !['false', '0', 'no', 'off'].includes((env.VELLUM_DEMO_CONTENT ?? '').toLowerCase());

// The app's own lifecycle hooks, Strapi-style: `register` runs before the registry is frozen
// (extend schemas, add document middleware, customize GraphQL), `bootstrap` once the database is ready.
export default {
  register({ app, strapi }) {
    // `graphql: { enabled: false }` in config/plugins: nothing to customize
    if (!app.hasPlugin(graphqlPlugin)) return;
    // Vellum's typed handle on the GraphQL plugin: a custom query and field, who may call what
    app.plugin(graphqlPlugin).extension.use(blogExtension);
    // Strapi's spelling works too, so code written for Strapi's GraphQL plugin ports unchanged:
    // tags are removed through REST only
    strapi.plugin('graphql').service('extension').shadowCRUD('api::tag.tag').disableAction('delete');
  },
  async bootstrap({ app }) {
    if (wantsDemoContent(app.env)) {
      try {
        // loaded only when wanted: it draws its pictures with sharp
        const { seedDemoContent } = await import('./seed/index.ts');
        await seedDemoContent(app);
      } catch (err) {
        // a demo is no reason not to serve; its documents are one transaction, so the next start writes them all
        app.log.error({ err }, 'the demo content could not be created; the next start tries again');
      }
    }
    const articles = await app.documents('api::article.article').count();
    app.log.info({ articles }, 'blog example ready');
  },
} satisfies AppLifecycle;
