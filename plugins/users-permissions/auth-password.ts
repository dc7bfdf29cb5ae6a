import { randomBytes } from 'node:crypto';
import { unauthorized, validationError } from '../../core/index.ts';
import { resetPasswordEmail } from './email.ts';
import { answerWithJwt, bodyOf, requireEmail, requireStrings, type AuthDeps, type Handler } from './auth-shared.ts';
import type { Documents } from './users-store.ts';
import { accountOf } from './rate-limit.ts';
import { USER_UID } from './schemas.ts';

const RESET_CODE = /^[0-9a-f]{1,256}$/;

/** `url?code=…`, or `url&code=…` when the configured URL already has a query. */
const withCode = (url: string, code: string): string => `${url}${url.includes('?') ? '&' : '?'}code=${code}`;

/** POST /auth/forgot-password, /auth/reset-password and /auth/change-password. */
export function createPasswordAuth(deps: AuthDeps): { forgot: Handler; reset: Handler; change: Handler } {
  const { app, api, users, mail } = deps;

  return {
    async forgot(ctx) {
      const email = requireEmail(bodyOf(ctx));
      const user = await users.withSecrets({ email: { $eqi: email } });
      // the answer never tells whether the address has an account; an account's own window
      // (any spelling of its address) bounds the emails it gets, silently
      if (user && user.blocked !== true && deps.limiter.admits(ctx, 'forgotPassword', accountOf(user.id))) {
        const code = randomBytes(64).toString('hex');
        try {
          // the code is stored only if its email left
          await app.documents.transaction(async (documents: Documents) => {
            await documents(USER_UID).update({
              documentId: String(user.documentId),
              data: { resetPasswordToken: code },
            });
            await mail.send(resetPasswordEmail(String(user.email), withCode(api.config.resetPasswordUrl, code)));
          });
        } catch (err) {
          ctx.state.log.error({ err }, 'users-permissions: the reset password email could not be sent');
        }
      }
      ctx.body = { ok: true };
    },

    async reset(ctx) {
      const { code, password, passwordConfirmation } = requireStrings(bodyOf(ctx), [
        'code',
        'password',
        'passwordConfirmation',
      ]);
      if (password !== passwordConfirmation) throw validationError('Passwords do not match');
      if (!RESET_CODE.test(code)) throw validationError('Incorrect code provided');
      const id = await app.documents.transaction(async (documents: Documents, trx) => {
        // one code, one reset: a second request with it waits here, then finds it gone
        await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`up_users:reset:${code}`]);
        const user = await users.withSecrets({ resetPasswordToken: code }, documents);
        if (!user) throw validationError('Incorrect code provided');
        await documents(USER_UID).update({
          documentId: String(user.documentId),
          data: { password, resetPasswordToken: null },
        });
        return Number(user.id);
      });
      await answerWithJwt(ctx, deps, id);
    },

    async change(ctx) {
      const auth = ctx.state.auth;
      // an API token is not a user: there is no current password to check
      if (auth?.strategy !== 'users-permissions' || !auth.credentials)
        throw unauthorized('You must be authenticated to change your password');
      const { currentPassword, password, passwordConfirmation } = requireStrings(bodyOf(ctx), [
        'currentPassword',
        'password',
        'passwordConfirmation',
      ]);
      if (password !== passwordConfirmation) throw validationError('Passwords do not match');
      const user = await users.withSecrets({ id: Number(auth.credentials.id) });
      if (!user) throw unauthorized();
      if (!(await users.passwordMatches(currentPassword, user.password)))
        throw validationError('The provided current password is invalid');
      if (currentPassword === password)
        throw validationError('Your new password must be different than your current password');
      await app.documents(USER_UID).update({ documentId: String(user.documentId), data: { password } });
      await answerWithJwt(ctx, deps, Number(user.id));
    },
  };
}
