// The app's lifecycle hooks, as in Strapi: `register` runs before the content-types are frozen
// (add document middleware, routes), `bootstrap` once the database is ready.
/** @type {import('vellum').AppLifecycle} */
module.exports = {
  register() {},
  async bootstrap({ app }) {
    const articles = await app.documents('api::article.article').count();
    app.log.info({ articles }, 'ready');
  },
};
