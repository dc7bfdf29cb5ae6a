import { describe, expect, it } from 'vitest';
import { databaseUnavailable, translateDatabaseError } from '../../../../core/documents/db-errors.ts';
import { uniqueIndexName } from '../../../../database/sync.ts';
import { isAppError } from '../../../../core/errors.ts';
import type { ContentType } from '../../../../core/content-types/types.ts';

const coded = (code: string, message = 'boom'): Error => Object.assign(new Error(message), { code });

describe('databaseUnavailable', () => {
  it.each([
    ['a refused connection', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', coded('ECONNRESET', 'read ECONNRESET')],
    ['an unknown host', coded('ENOTFOUND', 'getaddrinfo ENOTFOUND db')],
    ['admin_shutdown (57P01)', coded('57P01', 'terminating connection due to administrator command')],
    ['crash_shutdown (57P02)', coded('57P02')],
    ['cannot_connect_now (57P03)', coded('57P03', 'the database system is starting up')],
    ['connection_failure (08006)', coded('08006')],
    ['too_many_connections (53300)', coded('53300', 'sorry, too many clients already')],
    ['a connection that broke under a query', new Error('select 1 - Connection terminated unexpectedly')],
    ['a client that broke earlier', new Error('Client has encountered a connection error and is not queryable')],
    [
      'no connection in time',
      Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }),
    ],
  ])('is a 503 for %s', (_, err) => {
    expect(databaseUnavailable(err)?.toJSON()).toEqual({
      status: 503,
      name: 'ServiceUnavailableError',
      message: 'The database is unavailable; try again shortly',
      details: {},
    });
  });

  it.each([
    ['a unique violation', coded('23505')],
    ['a syntax error', coded('42601')],
    ['an error without a code', new Error('nope')],
    ['something that is not an error', { code: 'ECONNREFUSED' }],
  ])('is null for %s', (_, err) => {
    expect(databaseUnavailable(err)).toBeNull();
  });
});

describe('translateDatabaseError', () => {
  const ct: ContentType = {
    uid: 'api::tag.tag',
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags' },
    options: {},
    pluginOptions: {},
    attributes: { name: { type: 'string', unique: true } },
    origin: 'api',
    source: '',
  };
  const unique = Object.assign(coded('23505', 'duplicate key value'), { constraint: uniqueIndexName('tags', 'name') });

  it.each([
    ['a unique index', unique, 400, 'UNIQUE'],
    ['bad data (class 22)', coded('22P02', 'invalid input syntax for type integer'), 400, 'INVALID_VALUE'],
    ['a value too large for an index (54000)', coded('54000', 'index row size exceeds'), 400, 'VALUE_TOO_LARGE'],
    ['a statement timeout (57014)', coded('57014', 'canceling statement'), 503, 'STATEMENT_TIMEOUT'],
    ['a refused connection', coded('ECONNREFUSED'), 503, 'UNAVAILABLE'],
  ])('keeps the PostgreSQL error as the cause of %s', (_, err, status, code) => {
    const translated = translateDatabaseError(err, ct);
    expect(isAppError(translated)).toBe(true);
    expect(translated).toMatchObject({ status, code, cause: err });
  });

  it('passes an error it does not know on unchanged', () => {
    const syntax = coded('42601');
    expect(translateDatabaseError(syntax, ct)).toBe(syntax);
  });
});
