// Platform defaults for `config/api.ts` (Strapi's `rest` options).
export default {
  rest: { prefix: '/api', defaultLimit: 25, maxLimit: 100, withCount: true },
};
