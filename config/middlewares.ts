// Platform default for `config/middlewares.ts`. Vellum reads the `strapi::cors` entry of this
// list (Strapi's array of names and `{ name, config }` objects); its other middlewares are built
// in and their names are accepted and ignored. An app's own list replaces this one whole, so a
// list without `strapi::cors` turns CORS off, as in Strapi.
export default ['strapi::cors'];
