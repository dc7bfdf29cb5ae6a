import type { AppLifecycle } from 'vellum';

// The app's own lifecycle hooks, Strapi-style: `register` runs before the registry is frozen
// (extend schemas, add document middleware), `bootstrap` once the database is ready.
export default {
  register() {},
  async bootstrap({ app }) {
    const articles = await app.documents('api::article.article').count();
    app.log.info({ articles }, 'blog example ready');
  },
} satisfies AppLifecycle;
