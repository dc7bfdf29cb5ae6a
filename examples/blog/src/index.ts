import type { App, AppLifecycle } from 'vellum';

/** `VELLUM_DEMO_CONTENT=false` (or 0, no, off) starts the blog empty; anything else fills a new one. */
const wantsDemoContent = (env: App['env']): boolean =>
  !['false', '0', 'no', 'off'].includes((env.VELLUM_DEMO_CONTENT ?? '').toLowerCase());

// The app's own lifecycle hooks, Strapi-style: `register` runs before the registry is frozen
// (extend schemas, add document middleware), `bootstrap` once the database is ready.
export default {
  register() {},
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
