// No `connection` here: with DATABASE_URL unset, Vellum runs an embedded PostgreSQL
// whose data lives in examples/blog/.data (git-ignored) and survives restarts.
export default {};
