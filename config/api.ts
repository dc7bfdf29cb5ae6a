// Platform defaults for `config/api.ts`: Strapi's `rest` options, and Vellum's bounds on how many
// relations/components a filter or sort may go through and how many conditions a request may hold.
export default {
  rest: {
    prefix: '/api',
    defaultLimit: 25,
    maxLimit: 100,
    withCount: true,
    maxQueryDepth: 10,
    maxQueryConditions: 200,
  },
};
