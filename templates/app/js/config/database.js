// No `connection` here: with DATABASE_URL set Vellum connects there, otherwise it runs an
// embedded PostgreSQL whose data lives in .data/ (git-ignored) and survives restarts.
module.exports = {};
