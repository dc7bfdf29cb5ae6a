/**
 * users-permissions' GraphQL operations (Strapi 4's `me`, `register`, `login`, password
 * operations) call REST's handlers: the same checks, errors (in GraphQL's shape), emails and
 * rate limits, which REST and GraphQL share. In both shapes: Strapi 5's user has its `documentId` too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailMessage } from '../../plugins/users-permissions/config.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, shapeConfig } from '../helpers/graphql-shapes.ts';

const DOCUMENT_ID = /^[a-z0-9]{24}$/;

describe.each(SHAPES)('users-permissions over GraphQL (%s shape)', (shape) => {
  const flat = shape === 'flat';
  let t: TestApp;
  const mail: EmailMessage[] = [];

  const gql = (query: string, variables: Record<string, unknown> = {}, jwt?: string) =>
    t.request('POST', '/graphql', { query, variables }, { authorization: jwt ? `Bearer ${jwt}` : '' });

  /** Strapi 5's user has a documentId besides its row id. */
  const docId = flat ? 'documentId ' : '';
  const REGISTER = `mutation($input: UsersPermissionsRegisterInput!) {
    register(input: $input) { jwt user { id ${docId}username email confirmed blocked } }
  }`;
  const LOGIN = `mutation($identifier: String!, $password: String!) {
    login(input: { identifier: $identifier, password: $password }) {
      jwt user { id ${docId}username role { name type } }
    }
  }`;
  const ME = `{ me { id ${docId}username email confirmed blocked role { id name description type } } }`;

  beforeAll(async () => {
    const plugins = shapeConfig(shape).plugins;
    t = await startApp({
      config: {
        plugins: {
          ...plugins,
          'users-permissions': {
            config: {
              ratelimit: { max: 3 },
              resetPasswordUrl: 'http://front.test/reset',
              email: { send: (m: EmailMessage) => void mail.push(m) },
            },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('registers, logs in and reads `me`; the password is never readable', async () => {
    const input = { username: 'gqlann', email: 'Ann@Example.com', password: 'secret123' };
    const reg = await gql(REGISTER, { input });
    expect(reg.body.errors).toBeUndefined();
    const ids = (documentId: unknown) => ({ id: expect.stringMatching(/^\d+$/), ...(flat ? { documentId } : {}) });
    const registered = reg.body.data.register.user;
    expect(reg.body.data.register).toEqual({
      jwt: expect.any(String),
      user: {
        ...ids(expect.stringMatching(DOCUMENT_ID)),
        username: 'gqlann',
        email: 'ann@example.com',
        confirmed: true,
        blocked: false,
      },
    });
    const login = await gql(LOGIN, { identifier: 'ann@example.com', password: 'secret123' });
    expect(login.body.errors).toBeUndefined();
    const { jwt, user } = login.body.data.login;
    expect(user).toEqual({
      ...ids(registered.documentId),
      id: registered.id,
      username: 'gqlann',
      role: expect.any(Object),
    });
    expect(user.role.type).toBe('authenticated');
    const me = await gql(ME, {}, jwt);
    expect(me.body.errors).toBeUndefined();
    expect(me.body.data.me).toEqual({
      ...ids(registered.documentId),
      id: registered.id,
      username: 'gqlann',
      email: 'ann@example.com',
      confirmed: true,
      blocked: false,
      role: expect.any(Object),
    });
    expect(me.body.data.me.role).toMatchObject({ type: 'authenticated', name: expect.any(String) });
    // the schema has no field a password could be read through
    const pw = await gql('{ me { password } }', {}, jwt);
    expect(pw.status).toBe(400);
    expect(pw.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify([reg.body, login.body, me.body])).not.toContain('secret123');
  });

  it('answers `me` of the Public role with FORBIDDEN', async () => {
    const me = await gql(ME);
    expect(me.body.data).toEqual({ me: null });
    expect(me.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('refuses a wrong password and a taken email as Strapi 4 does', async () => {
    await gql(REGISTER, { input: { username: 'gqlbob', email: 'bob@example.com', password: 'secret123' } });
    const wrong = await gql(LOGIN, { identifier: 'gqlbob', password: 'nope-nope' });
    expect(wrong.status).toBe(200);
    expect(wrong.body.data).toBeNull();
    expect(wrong.body.errors).toEqual([
      {
        message: 'Invalid identifier or password',
        extensions: {
          error: { name: 'ValidationError', message: 'Invalid identifier or password', details: {} },
          code: 'BAD_USER_INPUT',
        },
      },
    ]);
    const taken = await gql(REGISTER, {
      input: { username: 'other', email: 'bob@example.com', password: 'secret123' },
    });
    expect(taken.body.errors[0].extensions.error.message).toBe('Email or Username are already taken');
  });

  it('shares the rate limit with REST (per identifier and address)', async () => {
    const rest = () => t.request('POST', '/api/auth/local', { identifier: 'limited@x.io', password: 'guess-1' });
    const graphql = () => gql(LOGIN, { identifier: 'limited@x.io', password: 'guess-1' });
    expect((await rest()).status).toBe(400);
    expect((await graphql()).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await rest()).status).toBe(400);
    const limited = await graphql();
    expect(limited.body.errors[0].extensions.error.name).toBe('RateLimitError');
    expect((await rest()).status).toBe(429);
  });

  it('changes, forgets and resets a password', async () => {
    const reg = await gql(REGISTER, { input: { username: 'gqlcat', email: 'cat@example.com', password: 'secret123' } });
    const jwt = reg.body.data.register.jwt as string;
    const change = await gql(
      `mutation { changePassword(currentPassword: "secret123", password: "better456", passwordConfirmation: "better456")
        { jwt user { username } } }`,
      {},
      jwt,
    );
    expect(change.body.errors).toBeUndefined();
    expect(change.body.data.changePassword.user).toEqual({ username: 'gqlcat' });
    const forgot = await gql('mutation { forgotPassword(email: "cat@example.com") { ok } }');
    expect(forgot.body).toEqual({ data: { forgotPassword: { ok: true } } });
    const sent = mail.find((m) => m.to === 'cat@example.com');
    const code = /code=([0-9a-f]+)/.exec(JSON.stringify(sent))?.[1];
    expect(code).toBeDefined();
    const reset = await gql(
      `mutation($code: String!) { resetPassword(password: "third789", passwordConfirmation: "third789", code: $code)
        { jwt user { username } } }`,
      { code },
    );
    expect(reset.body.errors).toBeUndefined();
    expect(reset.body.data.resetPassword.user).toEqual({ username: 'gqlcat' });
    const login = await gql(LOGIN, { identifier: 'gqlcat', password: 'third789' });
    expect(login.body.data.login.jwt).toEqual(expect.any(String));
  });
});
