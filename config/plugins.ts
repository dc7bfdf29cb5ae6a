// Platform defaults for `config/plugins.ts`: per plugin `{ enabled, config }`.
export default {};
