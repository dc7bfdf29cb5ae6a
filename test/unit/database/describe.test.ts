import { describe, expect, it } from 'vitest';
import { describeConnection } from '../../../database/describe.ts';

describe('describeConnection', () => {
  it('reads host, port, database and user from a URL, and never the password', () => {
    const summary = describeConnection('postgres://app:s3cr%40t@db.example.com:6543/blog?sslmode=require');
    expect(summary).toEqual({ kind: 'external', host: 'db.example.com', port: 6543, database: 'blog', user: 'app' });
    expect(JSON.stringify(summary)).not.toContain('s3cr');
  });

  it('reads the connection object knex takes, its own fields winning over its connectionString', () => {
    expect(describeConnection({ connectionString: 'postgresql://u:p@h/d', database: 'other', password: 'pw' })).toEqual(
      { kind: 'external', host: 'h', port: null, database: 'other', user: 'u' },
    );
    const fields = describeConnection({ host: '10.0.0.5', port: 5432, user: 'cms', password: 'pw', database: 'cms' });
    expect(fields).toEqual({ kind: 'external', host: '10.0.0.5', port: 5432, database: 'cms', user: 'cms' });
    expect(JSON.stringify(fields)).not.toContain('pw');
  });

  it("takes a socket URL's host from its query, and makes do with what a non-URL string lacks", () => {
    expect(describeConnection('postgresql:///blog?host=/run/postgresql')).toMatchObject({
      host: '/run/postgresql',
      database: 'blog',
    });
    expect(describeConnection('host=db password=pw dbname=blog')).toEqual({
      kind: 'external',
      host: 'localhost',
      port: null,
      database: null,
      user: null,
    });
  });
});
