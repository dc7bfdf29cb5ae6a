/** A statement with its string literals and quoted names taken out: what is left are keywords, functions, operators. */
export const withoutQuoted = (sql: string): string =>
  sql.replace(/'(?:[^']|'')*'/g, "''").replace(/"(?:[^"]|"")*"/g, '""');

/** Qualified references whose qualifier is a bare name (`t3.id`, `r.data`): none when every name is quoted. */
export const bareQualified = (sql: string): string[] => withoutQuoted(sql).match(/[A-Za-z_][A-Za-z0-9_]*\s*\./g) ?? [];
