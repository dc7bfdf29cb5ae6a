import { applicationError, type Doc, validationError } from '../../core/index.ts';
import { answerWithJwt, bodyOf, requireStrings, type AuthDeps, type Handler } from './auth-shared.ts';
import type { EmailConfirmation } from './auth-confirmation.ts';
import { takenIdentifier, type Documents } from './users-store.ts';
import { accountOf } from './rate-limit.ts';
import { USER_UID } from './schemas.ts';

const ALWAYS_ALLOWED = ['username', 'email', 'password'];
const TAKEN = 'Email or Username are already taken';

/** POST /auth/local (login) and POST /auth/local/register. */
export function createLocalAuth(
  deps: AuthDeps,
  confirmation: EmailConfirmation,
): { login: Handler; register: Handler } {
  const { app, api, users } = deps;
  const config = api.config;

  return {
    async login(ctx) {
      const { identifier, password } = requireStrings(bodyOf(ctx), ['identifier', 'password']);
      const user = await users.withSecrets({
        $or: [{ email: { $eqi: identifier } }, { username: { $eq: identifier } }],
      });
      // every spelling the database matches to this account shares one window too
      if (user) deps.limiter.enforce(ctx, 'callback', accountOf(user.id));
      // the same answer (and the same bcrypt cost) for an unknown user and a wrong password
      const ok = await users.passwordMatches(password, user?.password);
      if (!user || !ok) throw validationError('Invalid identifier or password');
      if (config.emailConfirmation && user.confirmed !== true)
        throw applicationError('Your account email is not confirmed');
      if (user.blocked === true) throw applicationError('Your account has been blocked by an administrator');
      await answerWithJwt(ctx, deps, Number(user.id));
    },

    async register(ctx) {
      const body = bodyOf(ctx);
      // Strapi refuses, rather than drops, what the app did not allow
      const allowed = new Set([...ALWAYS_ALLOWED, ...config.register.allowedFields]);
      const invalid = Object.keys(body).filter((key) => !allowed.has(key));
      if (invalid.length > 0) throw validationError(`Invalid parameters: ${invalid.join(', ')}`);
      const { username, email: given, password } = requireStrings(body, ['username', 'email', 'password']);
      const email = given.toLowerCase();
      const role = await users.defaultRole();
      const token = config.emailConfirmation ? confirmation.newToken() : null;

      let user: Doc;
      try {
        user = await app.documents.transaction(async (documents: Documents, trx) => {
          await users.lockIdentifiers(trx, [email, username]);
          const taken = await users.conflicts(documents, { email, username });
          if (taken.email || taken.username) throw applicationError(TAKEN);
          const created = await documents(USER_UID).create({
            data: {
              ...body,
              username,
              email,
              password,
              provider: 'local',
              role: String(role.documentId),
              confirmed: token === null,
              ...(token === null ? {} : { confirmationToken: token }),
            },
          });
          // inside the transaction: a confirmation email that cannot leave leaves no user behind
          if (token !== null) await confirmation.send(ctx, email, token);
          return created;
        });
      } catch (err) {
        throw takenIdentifier(err) ? applicationError(TAKEN, {}, { cause: err }) : err;
      }
      ctx.body = token !== null ? { user } : { jwt: await api.jwt().issue({ id: Number(user.id) }), user };
    },
  };
}
