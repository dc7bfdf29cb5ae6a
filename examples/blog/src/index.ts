import type { App } from '../../../core/kernel/app.ts';

// The app's own lifecycle hooks, Strapi-style: `register` runs before the registry is frozen
// (extend schemas, add document middleware), `bootstrap` once the database is ready.
export default {
  register(_: { app: App }) {},
  async bootstrap({ app }: { app: App }) {
    const articles = await app.documents('api::article.article').count();
    app.log.info({ articles }, 'blog example ready');
  },
};
