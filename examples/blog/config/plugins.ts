import type { EnvFn } from 'vellum';

const read = (uid: string): string[] => [`${uid}.find`, `${uid}.findOne`];

export default ({ env }: { env: EnvFn }) => ({
  // `GRAPHQL_SHAPE=flat npm start` serves Strapi 5's flat GraphQL schema instead of Strapi 4's entity one
  graphql: { config: { shape: env('GRAPHQL_SHAPE', 'entity') } },
  i18n: {
    config: { locales: ['en', 'fr'], defaultLocale: 'en' },
  },
  'users-permissions': {
    config: {
      // roles as code: granted at every start (added when missing, never removed)
      roles: {
        public: {
          permissions: [
            ...read('api::article.article'),
            ...read('api::author.author'),
            ...read('api::tag.tag'),
            'api::global.global.find',
            ...read('plugin::upload.content-api'),
          ],
        },
      },
    },
  },
});
