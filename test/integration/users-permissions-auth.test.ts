import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import type { EmailMessage } from '../../plugins/users-permissions/config.ts';
import { createRateLimiter } from '../../plugins/users-permissions/rate-limit.ts';
import { createEmailSender } from '../../plugins/users-permissions/email.ts';
import type { App } from '../../core/kernel/app.ts';
import { startApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';

const PUBLIC = { authorization: '' };
const bearer = (jwt: string): Record<string, string> => ({ authorization: `Bearer ${jwt}` });
const SECRET_KEYS = ['password', 'resetPasswordToken', 'confirmationToken'];

/** `t`: confirmation off, no rate limit; `c`: confirmation on, 3 requests per window. */
const PUBLIC_URL = 'https://cms.example.test';
let t: TestApp;
let c: TestApp;
const mail: EmailMessage[] = [];
const confirmMail: EmailMessage[] = [];
/** every response text, and every secret seen in the database, for the final leak check */
const texts: string[] = [];
const secrets = new Set<string>();

async function call(
  app: TestApp,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<TestResponse> {
  const res = await app.request(method, path, body, headers);
  texts.push(res.text);
  return res;
}
const pub = (app: TestApp, method: string, path: string, body?: unknown) => call(app, method, path, body, PUBLIC);

/** A JSON POST through node:http, which (unlike fetch) sends the Host header it is given. */
function rawPost(app: TestApp, path: string, body: unknown, headers: Record<string, string>): Promise<TestResponse> {
  const payload = JSON.stringify(body);
  const sent = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), ...headers };
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, { method: 'POST', headers: sent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        texts.push(text);
        resolve({ status: res.statusCode ?? 0, headers: new Headers(), body: JSON.parse(text), text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function remember(data: Record<string, unknown>): void {
  for (const key of SECRET_KEYS) if (typeof data[key] === 'string' && data[key]) secrets.add(data[key] as string);
}

/** A user's stored row (its secrets remembered for the leak check). */
async function row(app: TestApp, where: Record<string, unknown>): Promise<Record<string, any> | undefined> {
  const r = await app
    .sql('up_users')
    .whereRaw('data @> ?::jsonb', [JSON.stringify(where)])
    .first();
  if (r) remember(r.data);
  return r && { id: Number(r.id), documentId: r.document_id, ...r.data };
}
const userCount = async (app: TestApp): Promise<number> =>
  Number((await app.sql('up_users').count({ n: '*' }).first())!.n);

async function register(
  app: TestApp,
  username: string,
  password = `${username}-pass-1`,
): Promise<{ jwt: string; user: Record<string, any>; password: string }> {
  const res = await pub(app, 'POST', '/api/auth/local/register', {
    username,
    email: `${username}@example.com`,
    password,
  });
  expect(res.status).toBe(200);
  return { ...res.body, password };
}

const envelope = (status: number, name: string, message: string) => ({
  data: null,
  error: expect.objectContaining({ status, name, message }),
});

beforeAll(async () => {
  const appDir = await writeApp({
    files: {
      'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify({
        attributes: { nickname: { type: 'string' } },
      }),
    },
  });
  const upConfig = (config: Record<string, unknown>) => ({ plugins: { 'users-permissions': { config } } });
  [t, c] = await Promise.all([
    startApp({
      appDir,
      config: upConfig({
        ratelimit: { enabled: false },
        register: { allowedFields: ['nickname'] },
        resetPasswordUrl: 'http://front.test/reset',
        email: {
          send: (m: EmailMessage) => {
            if (m.to.startsWith('bounce')) throw new Error('mailbox unavailable');
            mail.push(m);
          },
        },
      }),
    }),
    startApp({
      appDir,
      config: {
        server: { url: `${PUBLIC_URL}/` },
        ...upConfig({
          emailConfirmation: true,
          emailConfirmationRedirection: 'http://front.test/welcome',
          ratelimit: { max: 3 },
          email: {
            send: (m: EmailMessage) => {
              if (m.to.startsWith('bounce')) throw new Error('mailbox unavailable');
              confirmMail.push(m);
            },
          },
        }),
      },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), c?.close()]);
});
// collect what the database holds secret after each test, to look for it in every answer
afterEach(async () => {
  for (const app of [t, c]) {
    for (const r of await app.sql('up_users').select('data')) remember(r.data);
  }
});

describe('register and login', () => {
  it('registers: {jwt, user} without secrets, lowercased email, local provider, default role, confirmed', async () => {
    const res = await pub(t, 'POST', '/api/auth/local/register', {
      username: 'alice',
      email: 'Alice@Example.com',
      password: 'alice-pass-1',
      nickname: 'Al',
    });
    expect(res.status).toBe(200);
    expect(res.body.jwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      username: 'alice',
      email: 'alice@example.com',
      provider: 'local',
      confirmed: true,
      blocked: false,
      nickname: 'Al',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      publishedAt: expect.any(String),
    });
    const stored = await row(t, { username: 'alice' });
    expect(stored!.password).toMatch(/^\$2[aby]\$10\$/);
    const role = await t.sql('up_roles').whereRaw(`data->>'type' = 'authenticated'`).first();
    expect(stored!.role).toBe(role.document_id);
  });

  it("logs in by email in any case and by username; /users/me answers the JWT's user", async () => {
    const { user } = await register(t, 'bob');
    for (const identifier of ['bob@example.com', 'BOB@Example.COM', 'bob']) {
      const res = await pub(t, 'POST', '/api/auth/local', { identifier, password: 'bob-pass-1' });
      expect(res.status).toBe(200);
      expect(res.body.user).toEqual(user);
      const me = await call(t, 'GET', '/api/users/me', undefined, bearer(res.body.jwt));
      expect(me.status).toBe(200);
      expect(me.body).toEqual(user);
    }
  });

  it('gives the same 400 for an unknown identifier and a wrong password', async () => {
    await register(t, 'carol');
    const unknown = await pub(t, 'POST', '/api/auth/local', {
      identifier: 'nobody@example.com',
      password: 'carol-pass-1',
    });
    const wrong = await pub(t, 'POST', '/api/auth/local', { identifier: 'carol', password: 'not-her-password' });
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: 'Invalid identifier or password', details: {} },
      });
    }
    expect(unknown.text).toBe(wrong.text);
  });

  it('refuses a body without identifier or password, naming both', async () => {
    const res = await pub(t, 'POST', '/api/auth/local', { identifier: '' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', message: '2 errors occurred' });
    expect(res.body.error.details.errors.map((e: { path: string[] }) => e.path)).toEqual([
      ['identifier'],
      ['password'],
    ]);
  });

  it('refuses a blocked user, whose JWT stops working too', async () => {
    const { jwt, user } = await register(t, 'dave');
    const blocked = await call(t, 'PUT', `/api/users/${user.id}`, { blocked: true });
    expect(blocked.status).toBe(200);
    expect(blocked.body.blocked).toBe(true);
    const res = await pub(t, 'POST', '/api/auth/local', { identifier: 'dave', password: 'dave-pass-1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope(400, 'ApplicationError', 'Your account has been blocked by an administrator'));
    expect((await call(t, 'GET', '/api/users/me', undefined, bearer(jwt))).status).toBe(401);
  });

  it('refuses a taken email (in any case) or username, leaving the table as it was', async () => {
    await register(t, 'erin');
    const before = await userCount(t);
    for (const body of [
      { username: 'erin2', email: 'ERIN@example.com', password: 'whatever-1' },
      { username: 'erin', email: 'other-erin@example.com', password: 'whatever-1' },
      { username: 'erin@example.com', email: 'erin3@example.com', password: 'whatever-1' },
    ]) {
      const res = await pub(t, 'POST', '/api/auth/local/register', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope(400, 'ApplicationError', 'Email or Username are already taken'));
    }
    expect(await userCount(t)).toBe(before);
  });

  it('lets one of several simultaneous registrations with the same email through', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        pub(t, 'POST', '/api/auth/local/register', {
          username: `racer${i}`,
          email: 'race@example.com',
          password: 'racer-pass-1',
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.status === 400))
      expect(r.body.error.message).toBe('Email or Username are already taken');
    expect(
      Number((await t.sql('up_users').whereRaw(`data->>'email' = 'race@example.com'`).count({ n: '*' }).first())!.n),
    ).toBe(1);
  });

  it('admits only the register.allowedFields beyond username, email and password', async () => {
    const before = await userCount(t);
    const res = await pub(t, 'POST', '/api/auth/local/register', {
      username: 'frank',
      email: 'frank@example.com',
      password: 'frank-pass-1',
      role: 1,
      confirmed: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope(400, 'ValidationError', 'Invalid parameters: role, confirmed'));
    expect(await userCount(t)).toBe(before);
  });

  it('reports schema violations with details and creates nothing', async () => {
    const before = await userCount(t);
    const res = await pub(t, 'POST', '/api/auth/local/register', {
      username: 'gi',
      email: 'not-an-email',
      password: '123',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    const paths = res.body.error.details.errors.map((e: { path: string[] }) => e.path[0]).sort();
    expect(paths).toEqual(['email', 'password', 'username']);
    expect(res.text).not.toContain('"123"');
    expect(await userCount(t)).toBe(before);
  });
});

describe('passwords', () => {
  it('forgot-password answers ok for anyone and emails a code; reset-password sets the new password', async () => {
    const { user } = await register(t, 'heidi', 'old-password-1');
    const unknown = await pub(t, 'POST', '/api/auth/forgot-password', { email: 'nobody-here@example.com' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ ok: true });
    expect(mail).toHaveLength(0);

    const known = await pub(t, 'POST', '/api/auth/forgot-password', { email: 'HEIDI@example.com' });
    expect(known.body).toEqual({ ok: true });
    expect(mail).toHaveLength(1);
    const code = (await row(t, { username: 'heidi' }))!.resetPasswordToken as string;
    expect(code).toMatch(/^[0-9a-f]{128}$/);
    expect(mail[0]).toMatchObject({ to: 'heidi@example.com', subject: 'Reset password' });
    expect(mail[0].text).toContain(`http://front.test/reset?code=${code}`);

    const mismatch = await pub(t, 'POST', '/api/auth/reset-password', {
      code,
      password: 'new-password-1',
      passwordConfirmation: 'new-password-2',
    });
    expect(mismatch.body).toEqual(envelope(400, 'ValidationError', 'Passwords do not match'));
    const badCode = await pub(t, 'POST', '/api/auth/reset-password', {
      code: 'abc123',
      password: 'new-password-1',
      passwordConfirmation: 'new-password-1',
    });
    expect(badCode.body).toEqual(envelope(400, 'ValidationError', 'Incorrect code provided'));

    const reset = await pub(t, 'POST', '/api/auth/reset-password', {
      code,
      password: 'new-password-1',
      passwordConfirmation: 'new-password-1',
    });
    expect(reset.status).toBe(200);
    expect(reset.body.user).toMatchObject({ id: user.id, username: 'heidi' });
    expect((await call(t, 'GET', '/api/users/me', undefined, bearer(reset.body.jwt))).body.id).toBe(user.id);
    expect((await row(t, { username: 'heidi' }))!.resetPasswordToken).toBeNull();

    // an email that cannot be sent leaves no code behind, and the answer is the same
    await register(t, 'bounce');
    expect((await pub(t, 'POST', '/api/auth/forgot-password', { email: 'bounce@example.com' })).body).toEqual({
      ok: true,
    });
    expect((await row(t, { username: 'bounce' }))!.resetPasswordToken ?? null).toBeNull();

    const again = await pub(t, 'POST', '/api/auth/reset-password', {
      code,
      password: 'other-password-1',
      passwordConfirmation: 'other-password-1',
    });
    expect(again.body.error.message).toBe('Incorrect code provided');
    expect((await pub(t, 'POST', '/api/auth/local', { identifier: 'heidi', password: 'old-password-1' })).status).toBe(
      400,
    );
    expect((await pub(t, 'POST', '/api/auth/local', { identifier: 'heidi', password: 'new-password-1' })).status).toBe(
      200,
    );
  });

  it('change-password checks the current password, confirmation and change, then issues a new JWT', async () => {
    const { jwt } = await register(t, 'ivan', 'ivan-pass-1');
    const change = (body: unknown, headers: Record<string, string> = bearer(jwt)) =>
      call(t, 'POST', '/api/auth/change-password', body, headers);
    const cases: Array<[unknown, string]> = [
      [
        { currentPassword: 'wrong-pass-1', password: 'ivan-pass-2', passwordConfirmation: 'ivan-pass-2' },
        'The provided current password is invalid',
      ],
      [
        { currentPassword: 'ivan-pass-1', password: 'ivan-pass-2', passwordConfirmation: 'ivan-pass-3' },
        'Passwords do not match',
      ],
      [
        { currentPassword: 'ivan-pass-1', password: 'ivan-pass-1', passwordConfirmation: 'ivan-pass-1' },
        'Your new password must be different than your current password',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await change(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope(400, 'ValidationError', message));
    }
    const good = { currentPassword: 'ivan-pass-1', password: 'ivan-pass-2', passwordConfirmation: 'ivan-pass-2' };
    // an API token is not a user; nobody at all is not either
    expect((await change(good, {})).body).toEqual(
      envelope(401, 'UnauthorizedError', 'You must be authenticated to change your password'),
    );
    expect((await change(good, PUBLIC)).status).toBe(401);

    const res = await change(good);
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('ivan');
    expect((await call(t, 'GET', '/api/users/me', undefined, bearer(res.body.jwt))).body.username).toBe('ivan');
    expect((await pub(t, 'POST', '/api/auth/local', { identifier: 'ivan', password: 'ivan-pass-1' })).status).toBe(400);
    expect((await pub(t, 'POST', '/api/auth/local', { identifier: 'ivan', password: 'ivan-pass-2' })).status).toBe(200);
  });
});

describe('users API', () => {
  it('creates (201), reads, lists, counts, updates and deletes users as bare objects with numeric ids', async () => {
    const authenticated = await t.sql('up_roles').whereRaw(`data->>'type' = 'authenticated'`).first();
    const created = await call(t, 'POST', '/api/users', {
      username: 'judy',
      email: 'Judy@Example.com',
      password: 'judy-pass-1',
      resetPasswordToken: 'sneaky',
      role: Number(authenticated.id),
    });
    expect(created.status).toBe(201);
    // create and update answer the user with its role, as Strapi's do
    const { role: createdRole, ...judy } = created.body;
    expect(createdRole).toMatchObject({ id: Number(authenticated.id), type: 'authenticated' });
    expect(judy).toMatchObject({
      id: expect.any(Number),
      username: 'judy',
      email: 'judy@example.com',
      provider: 'local',
      confirmed: false,
      blocked: false,
    });
    for (const key of SECRET_KEYS) expect(judy).not.toHaveProperty(key);
    expect((await row(t, { username: 'judy' }))!.resetPasswordToken ?? null).toBeNull();

    const one = await call(t, 'GET', `/api/users/${judy.id}?populate=role`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ ...judy, role: { type: 'authenticated' } });

    const list = await call(t, 'GET', '/api/users?filters[username][$eq]=judy');
    expect(list.body).toEqual([judy]);
    const all = await call(t, 'GET', '/api/users?sort=id:desc');
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body[0].id).toBe(judy.id);
    const count = await call(t, 'GET', '/api/users/count');
    expect(count.body).toBe(await userCount(t));
    expect((await call(t, 'GET', '/api/users/count?filters[username][$startsWith]=jud')).body).toBe(1);

    const publicRole = await t.sql('up_roles').whereRaw(`data->>'type' = 'public'`).first();
    const updated = await call(t, 'PUT', `/api/users/${judy.id}`, { username: 'judy2', role: Number(publicRole.id) });
    expect(updated.status).toBe(200);
    const role = { id: Number(publicRole.id), type: 'public' };
    expect(updated.body).toMatchObject({ id: judy.id, username: 'judy2', role });
    expect((await row(t, { username: 'judy2' }))!.role).toBe(publicRole.document_id);
    expect((await call(t, 'PUT', `/api/users/${judy.id}`, { password: null })).body).toEqual(
      envelope(400, 'ValidationError', 'password.notNull'),
    );
    const clash = await call(t, 'PUT', `/api/users/${judy.id}`, { username: 'alice' });
    expect(clash.body).toEqual(envelope(400, 'ApplicationError', 'Username already taken'));
    const emailClash = await call(t, 'POST', '/api/users', {
      username: 'judy3',
      email: 'ALICE@example.com',
      password: 'judy-pass-1',
      role: 1,
    });
    expect(emailClash.body).toEqual(envelope(400, 'ApplicationError', 'Email already taken'));

    const deleted = await call(t, 'DELETE', `/api/users/${judy.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: judy.id, username: 'judy2' });
    for (const key of SECRET_KEYS) expect(deleted.body).not.toHaveProperty(key);
    expect(await row(t, { username: 'judy2' })).toBeUndefined();
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await call(t, method, `/api/users/${judy.id}`, method === 'PUT' ? { username: 'ghost' } : undefined);
      expect(res.status).toBe(404);
    }
    expect((await call(t, 'GET', '/api/users/not-a-number')).status).toBe(404);
  });

  it('answers /users/me with 401 to an API token and to nobody', async () => {
    expect((await call(t, 'GET', '/api/users/me')).body).toEqual(envelope(401, 'UnauthorizedError', 'Unauthorized'));
    expect((await pub(t, 'GET', '/api/users/me')).status).toBe(401);
  });

  it('never lets a filter or a field reach the private attributes', async () => {
    expect((await call(t, 'GET', '/api/users?filters[password][$null]=false')).status).toBe(400);
    expect((await call(t, 'GET', '/api/users?filters[resetPasswordToken][$null]=true')).status).toBe(400);
    expect((await call(t, 'GET', '/api/users?fields[0]=password')).status).toBe(400);
  });
});

describe('email confirmation', () => {
  it('answers {user} without a JWT, refuses login until the emailed link is followed, then redirects', async () => {
    const res = await pub(c, 'POST', '/api/auth/local/register', {
      username: 'kate',
      email: 'Kate@example.com',
      password: 'kate-pass-1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: expect.objectContaining({ username: 'kate', email: 'kate@example.com', confirmed: false }),
    });
    const token = (await row(c, { username: 'kate' }))!.confirmationToken as string;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(confirmMail).toHaveLength(1);
    expect(confirmMail[0]).toMatchObject({ to: 'kate@example.com', subject: 'Account confirmation' });
    expect(confirmMail[0].text).toContain(`${PUBLIC_URL}/api/auth/email-confirmation?confirmation=${token}`);

    const early = await pub(c, 'POST', '/api/auth/local', { identifier: 'kate', password: 'kate-pass-1' });
    expect(early.body).toEqual(envelope(400, 'ApplicationError', 'Your account email is not confirmed'));

    const bad = await pub(c, 'GET', '/api/auth/email-confirmation?confirmation=0123abcd');
    expect(bad.body).toEqual(envelope(400, 'ValidationError', 'Invalid token'));
    expect((await pub(c, 'GET', '/api/auth/email-confirmation')).body.error.message).toBe('Invalid token');

    const follow = await fetch(`${c.url}/api/auth/email-confirmation?confirmation=${token}`, { redirect: 'manual' });
    texts.push(await follow.text());
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe('http://front.test/welcome');
    expect(await row(c, { username: 'kate' })).toMatchObject({ confirmed: true, confirmationToken: null });

    const login = await pub(c, 'POST', '/api/auth/local', { identifier: 'kate', password: 'kate-pass-1' });
    expect(login.status).toBe(200);
    expect(login.body.user.confirmed).toBe(true);
  });

  it('builds the link from server.url only, whatever Host or X-Forwarded-Host the request names', async () => {
    const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
    const body = { username: 'oscar', email: 'oscar@example.com', password: 'oscar-pass-1' };
    const res = await rawPost(c, '/api/auth/local/register', body, forged);
    expect(res.status).toBe(200);
    const token = (await row(c, { username: 'oscar' }))!.confirmationToken as string;
    const mailed = confirmMail.at(-1)!;
    expect(mailed.to).toBe('oscar@example.com');
    expect(mailed.text).toContain(`\n${PUBLIC_URL}/api/auth/email-confirmation?confirmation=${token}\n`);
    expect(mailed.text).not.toContain('evil');
  });

  it('refuses to start with email confirmation on and no usable server.url, naming it', async () => {
    const urls = [undefined, '', 'cms.example.test', '/relative', 'ftp://cms.example.test', `${PUBLIC_URL}/?next=x`];
    const plugins = { 'users-permissions': { config: { emailConfirmation: true } } };
    const attempts = urls.map((url) => startApp({ config: { server: url === undefined ? {} : { url }, plugins } }));
    const results = await Promise.allSettled(attempts);
    // an app that did start is stopped before the assertions below can fail the test
    await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
    for (const started of results) {
      expect(started.status).toBe('rejected');
      const err = (started as PromiseRejectedResult).reason as Error;
      expect(err.name).toBe('ConfigurationError');
      // the kernel names the plugin; the plugin's own error is the cause
      expect(err.message).toMatch(/^Plugin "users-permissions" failed in register: users-permissions: .*server\.url/);
      expect((err.cause as Error).message).toMatch(/^users-permissions: .*server\.url/);
    }
    expect(results[0]).toMatchObject({ reason: { message: expect.stringContaining("never from the request's Host") } });
  });

  it('logs emails with their text when no provider is configured', async () => {
    const lines: string[] = [];
    const app = {
      log: {
        info: (_obj: unknown, msg: string) => {
          lines.push(msg);
        },
      },
    } as unknown as App;
    await createEmailSender(app, undefined).send({
      to: 'x@example.com',
      subject: 'Reset password',
      text: 'link: http://front.test/reset?code=abc',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('x@example.com');
    expect(lines[0]).toContain('http://front.test/reset?code=abc');
  });

  it('creates no user when the confirmation email cannot be sent', async () => {
    const before = await userCount(c);
    const res = await pub(c, 'POST', '/api/auth/local/register', {
      username: 'bounce',
      email: 'bounce@example.com',
      password: 'bounce-pass-1',
    });
    expect(res.body).toEqual(envelope(400, 'ApplicationError', 'The confirmation email could not be sent'));
    expect(await userCount(c)).toBe(before);
  });

  it('sends the confirmation again to an unconfirmed account only, answering every address alike', async () => {
    await pub(c, 'POST', '/api/auth/local/register', {
      username: 'liam',
      email: 'liam@example.com',
      password: 'liam-pass-1',
    });
    const first = (await row(c, { username: 'liam' }))!.confirmationToken;
    const sent = confirmMail.length;
    const again = await pub(c, 'POST', '/api/auth/send-email-confirmation', { email: 'LIAM@example.com' });
    const second = (await row(c, { username: 'liam' }))!.confirmationToken;
    expect(second).not.toBe(first);
    expect(confirmMail).toHaveLength(sent + 1);
    expect(confirmMail.at(-1)).toMatchObject({ to: 'liam@example.com' });
    expect(confirmMail.at(-1)!.text).toContain(`${PUBLIC_URL}/api/auth/email-confirmation?confirmation=${second}`);

    // an account whose email cannot leave keeps no new token, and hears nothing of it
    const bouncing = { username: 'bounce-c', email: 'bounce-c@example.com', password: 'bounce-pass-1', role: 1 };
    const bounce = await call(c, 'POST', '/api/users', bouncing);
    expect(bounce.body.confirmed).toBe(false);
    const kate = await row(c, { username: 'kate' });
    expect(kate!.confirmed).toBe(true);
    const nora = await register(c, 'nora');
    expect((await call(c, 'PUT', `/api/users/${nora.user.id}`, { blocked: true })).status).toBe(200);
    const noraToken = (await row(c, { username: 'nora' }))!.confirmationToken;
    const before = confirmMail.length;

    // Strapi answers "Already confirmed" / "User blocked": that tells which addresses have accounts
    const answers = new Map<string, TestResponse>([['unconfirmed', again]]);
    for (const [what, email] of [
      ['confirmed', 'Kate@example.com'],
      ['unknown', 'ghost@example.com'],
      ['blocked', 'nora@example.com'],
      ['bouncing', 'bounce-c@example.com'],
    ])
      answers.set(what, await pub(c, 'POST', '/api/auth/send-email-confirmation', { email }));
    for (const [what, res] of answers) {
      expect(res.status, what).toBe(200);
      expect(res.body, what).toEqual({ email: expect.any(String), sent: true });
      expect(res.text.replace(res.body.email, 'EMAIL'), what).toBe('{"email":"EMAIL","sent":true}');
    }
    expect(answers.get('confirmed')!.body.email).toBe('kate@example.com');
    expect(confirmMail).toHaveLength(before);
    expect((await row(c, { username: 'nora' }))!.confirmationToken).toBe(noraToken);
    expect((await row(c, { username: 'bounce-c' }))!.confirmationToken ?? null).toBeNull();
  });
});

describe('rate limit', () => {
  it('answers 429 after max requests per identifier, path and address; another identifier goes on', async () => {
    const attempt = (identifier: string) => pub(c, 'POST', '/api/auth/local', { identifier, password: 'guess-pass-1' });
    for (let i = 0; i < 3; i++) expect((await attempt('Mallory@example.com')).status).toBe(400);
    const limited = await attempt('mallory@EXAMPLE.com');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      data: null,
      error: {
        status: 429,
        name: 'RateLimitError',
        message: 'Too many requests, please try again later.',
        details: {},
      },
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await attempt('someone-else@example.com')).status).toBe(400);
    // not behind a proxy: a client cannot pick its own address with X-Forwarded-For
    const spoofed = await call(
      c,
      'POST',
      '/api/auth/local',
      { identifier: 'mallory@example.com', password: 'guess-pass-1' },
      { ...PUBLIC, 'x-forwarded-for': '203.0.113.9' },
    );
    expect(spoofed.status).toBe(429);
    // the same identifier on another limited route has its own window
    expect((await pub(c, 'POST', '/api/auth/forgot-password', { email: 'mallory@example.com' })).status).toBe(200);
  });

  it('keys a login on the identifier it checks: other body fields, case and spaces open no new window', async () => {
    const attempt = (body: Record<string, unknown>) =>
      pub(c, 'POST', '/api/auth/local', { password: 'guess-pass-1', ...body });
    for (const body of [
      { identifier: 'peggy@example.com', email: 'decoy-1@example.com' },
      { identifier: ' Peggy@Example.com', email: 'decoy-2@example.com' },
      { identifier: 'PEGGY@example.com\t', email: 'decoy-3@example.com', username: 'decoy' },
    ])
      expect((await attempt(body)).status).toBe(400);
    const limited = await attempt({ identifier: 'peggy@example.com', email: 'decoy-4@example.com' });
    expect(limited.status).toBe(429);
    expect(limited.body.error.name).toBe('RateLimitError');

    // routes whose body names no account are limited on the address alone, whatever it adds
    const reset = (i: number) =>
      pub(c, 'POST', '/api/auth/reset-password', {
        code: 'abc',
        password: 'x-pass-1',
        passwordConfirmation: 'x-pass-1',
        email: `decoy-${i}@example.com`,
      });
    for (let i = 0; i < 3; i++) expect((await reset(i)).status).toBe(400);
    expect((await reset(3)).status).toBe(429);
  });

  it("counts every identifier that names one account in that account's window", async () => {
    await register(c, 'quinn');
    const attempt = (identifier: string) => pub(c, 'POST', '/api/auth/local', { identifier, password: 'guess-pass-1' });
    // username and email are two identifiers (two windows of 3) for one account (one window of 3)
    for (const identifier of ['quinn', 'quinn@example.com', 'quinn']) {
      expect((await attempt(identifier)).status).toBe(400);
    }
    expect((await attempt('Quinn@Example.com')).status).toBe(429);
    // the account's window is the client's: a spelling no account has still only counts its own
    expect((await attempt('quinn-not@example.com')).status).toBe(400);
  });

  it('behind proxies (server.proxy, IS_PROXIED), keys on the client the proxies saw, not a forged entry', async () => {
    const limit = { 'users-permissions': { config: { ratelimit: { max: 1 } } } };
    const setups: Array<[string, Parameters<typeof startApp>[0], string]> = [
      ['server.proxy: 1', { config: { server: { proxy: 1 }, plugins: limit } }, ''],
      ['IS_PROXIED=true', { env: { IS_PROXIED: 'true' }, config: { plugins: limit } }, ''],
      ['Strapi { koa: true }', { config: { server: { proxy: { koa: true } }, plugins: limit } }, ''],
      ['server.proxy: 2', { config: { server: { proxy: 2 }, plugins: limit } }, ', 10.0.0.2'],
    ];
    const apps = await Promise.all(setups.map(([, options]) => startApp(options)));
    try {
      for (const [i, [name, , inner]] of setups.entries()) {
        const headers = (xff: string) => ({ ...PUBLIC, 'x-forwarded-for': xff + inner });
        const attempt = (xff: string) =>
          call(apps[i], 'POST', '/api/auth/local', { identifier: 'eve', password: 'guess-pass-1' }, headers(xff));
        expect((await attempt('198.51.100.1')).status, name).toBe(400);
        // what the client itself sent stays on the left of what the proxies appended
        expect((await attempt('203.0.113.66, 198.51.100.1')).status, name).toBe(429);
        expect((await attempt('198.51.100.1, 203.0.113.67, 198.51.100.2')).status, name).toBe(400);
        expect((await attempt('198.51.100.2')).status, name).toBe(429);
      }
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });

  it('forgets windows once they are over, so memory stays bounded', () => {
    let now = 0;
    const limiter = createRateLimiter({ enabled: true, interval: 1000, max: 2 }, { now: () => now, maxKeys: 3 });
    expect([limiter.hit('a'), limiter.hit('a'), limiter.hit('a')]).toEqual([0, 0, 1]);
    limiter.hit('b');
    limiter.hit('c');
    limiter.hit('d'); // over maxKeys: the oldest window (a) goes
    expect(limiter.size()).toBe(3);
    now = 1000;
    limiter.hit('e');
    expect(limiter.size()).toBe(1);
    expect(limiter.hit('a')).toBe(0);
  });
});

describe('secrets', () => {
  it('never sends a password hash, a reset code or a confirmation token in any answer', () => {
    // hashes of every user (some replaced since), a reset code, confirmation tokens
    expect(secrets.size).toBeGreaterThan(14);
    expect([...secrets].filter((v) => /^[0-9a-f]{128}$/.test(v))).toHaveLength(1);
    const all = texts.join('\n');
    for (const secret of secrets) expect(all.includes(secret), `leaked ${secret.slice(0, 12)}…`).toBe(false);
  });
});
