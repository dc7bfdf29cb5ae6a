module.exports = {
  'users-permissions': {
    config: {
      // roles as code: granted at every start (added when missing, never removed); anyone may
      // read articles, writing needs an API token or a user whose role grants it
      roles: {
        public: { permissions: ['api::article.article.find', 'api::article.article.findOne'] },
      },
    },
  },
};
