import { describe, expect, it } from 'vitest';
import {
  applicationError,
  configurationError,
  conflict,
  fieldErrors,
  forbidden,
  policyFailed,
  headersTooLarge,
  internalError,
  invalidKey,
  invalidQueryKey,
  methodNotAllowed,
  notFound,
  paginationError,
  payloadTooLarge,
  rateLimited,
  requestTimeout,
  serviceUnavailable,
  unauthorized,
  uniqueValue,
  unsupportedMediaType,
  validationError,
  type AppError,
} from '../../../core/errors.ts';

const issue = { path: ['name'], message: 'This attribute must be unique', name: 'ValidationError' as const };

describe('the error catalog', () => {
  it.each<[string, AppError]>([
    ['VALIDATION', validationError('bad')],
    ['INVALID_FIELDS', fieldErrors([{ ...issue, message: 'name must be defined.' }])],
    ['UNIQUE', uniqueValue(issue)],
    ['INVALID_KEY', invalidKey('nope', 'nope', 'body')],
    ['INVALID_KEY', invalidQueryKey('nope', null, 'filters')],
    ['PAGINATION', paginationError('bad page')],
    ['APPLICATION', applicationError('not enabled')],
    ['UNAUTHORIZED', unauthorized()],
    ['FORBIDDEN', forbidden()],
    ['POLICY', policyFailed()],
    ['NOT_FOUND', notFound()],
    ['METHOD_NOT_ALLOWED', methodNotAllowed()],
    ['CONFLICT', conflict()],
    ['REQUEST_TIMEOUT', requestTimeout()],
    ['PAYLOAD_TOO_LARGE', payloadTooLarge()],
    ['UNSUPPORTED_MEDIA_TYPE', unsupportedMediaType()],
    ['RATE_LIMITED', rateLimited()],
    ['HEADERS_TOO_LARGE', headersTooLarge()],
    ['INTERNAL', internalError()],
    ['UNAVAILABLE', serviceUnavailable()],
    ['LOCK_TIMEOUT', serviceUnavailable('locked', { code: 'LOCK_TIMEOUT' })],
  ])('gives every entry a stable code (%s)', (code, err) => {
    expect(err.code).toBe(code);
  });

  it("keeps the code and the cause out of the envelope: exactly Strapi's status, name, message and details", () => {
    const cause = new Error('duplicate key value violates unique constraint');
    const err = uniqueValue({ ...issue, value: 'x' }, cause);
    expect(err.cause).toBe(cause);
    expect(JSON.stringify(err)).toBe(
      JSON.stringify({
        status: 400,
        name: 'ValidationError',
        message: 'This attribute must be unique',
        details: { errors: [{ ...issue, value: 'x' }] },
      }),
    );
  });

  it('gives configuration errors a code and keeps their cause', () => {
    const cause = new SyntaxError('Unexpected token');
    expect(configurationError('config/server.json: cannot be loaded', { cause })).toMatchObject({
      name: 'ConfigurationError',
      code: 'CONFIGURATION',
      cause,
    });
    const failed = configurationError('Plugin "x" failed in register: boom', { code: 'PLUGIN_FAILED' });
    expect(failed.code).toBe('PLUGIN_FAILED');
  });
});
