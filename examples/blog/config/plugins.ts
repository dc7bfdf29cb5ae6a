export default {
  i18n: {
    config: { locales: ['en', 'fr'], defaultLocale: 'en' },
  },
};
