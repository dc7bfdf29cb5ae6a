import { randomBytes } from 'node:crypto';
import { applicationError, configurationError, type RequestContext, validationError } from '../../core/index.ts';
import { confirmationEmail } from './email.ts';
import { answerWithJwt, bodyOf, requireEmail, type AuthDeps, type Handler } from './auth-shared.ts';
import type { Documents } from './users-store.ts';
import { accountOf } from './rate-limit.ts';
import { USER_UID } from './schemas.ts';

export interface EmailConfirmation {
  /** GET /auth/email-confirmation?confirmation=T */
  confirm: Handler;
  /**
   * Strapi 4 GraphQL's `emailConfirmation`: the same confirmation, answered with `{jwt, user}`
   * instead of a redirect; the token is the body's `confirmation`
   */
  confirmAnswering: Handler;
  /** POST /auth/send-email-confirmation */
  resend: Handler;
  /** a fresh confirmation token for a new or unconfirmed user */
  newToken(): string;
  /** email the confirmation link; call it inside the transaction that stores the token */
  send(ctx: RequestContext, to: string, token: string): Promise<void>;
}

// Tokens are hex; anything else (or absurdly long) cannot match, so it is not looked up.
const TOKEN = /^[0-9a-f]{1,256}$/;

/**
 * Where confirmation links point: `server.url`, the server's public address, and nothing the
 * request says. A link built from the Host header (or X-Forwarded-Host) would wrap a valid
 * token in whatever address the sender of the request chose, and mail it to the victim.
 * Without a usable `server.url` the app refuses to start rather than send such links.
 */
export function confirmationLinkBase(url: unknown): string {
  if (url === undefined || url === null || url === '') {
    throw configurationError(
      'users-permissions: emailConfirmation is on but server.url is not set. Confirmation links are built ' +
        "from server.url only, never from the request's Host: set it to the server's public address, " +
        "e.g. url: env('PUBLIC_URL') in config/server.ts",
    );
  }
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  const bare = parsed && !parsed.search && !parsed.hash && !parsed.username && !parsed.password;
  if (!parsed || !bare || !/^https?:$/.test(parsed.protocol)) {
    throw configurationError(
      `users-permissions: server.url must be an absolute http(s) URL without credentials, query or fragment ` +
        `(confirmation links start with it); got ${JSON.stringify(url)}`,
    );
  }
  return parsed.href.replace(/\/+$/, '');
}

/** Email confirmation: the link in the email confirms the account and redirects. */
export function createEmailConfirmation(deps: AuthDeps): EmailConfirmation {
  const { app, api, users, mail, limiter, prefix } = deps;
  // read when the plugin registers, so a missing server.url stops the start, not a request
  const base = api.config.emailConfirmation ? confirmationLinkBase(app.config.server.url) : null;

  async function deliver(to: string, token: string): Promise<void> {
    if (base === null) throw configurationError('users-permissions: confirmation emails need emailConfirmation on');
    await mail.send(confirmationEmail(to, `${base}${prefix}/auth/email-confirmation?confirmation=${token}`));
  }

  async function send(ctx: RequestContext, to: string, token: string): Promise<void> {
    try {
      await deliver(to, token);
    } catch (err) {
      ctx.state.log.error({ err }, 'users-permissions: the confirmation email could not be sent');
      throw applicationError('The confirmation email could not be sent');
    }
  }

  const newToken = (): string => randomBytes(20).toString('hex');

  /** Confirm the account holding `token`; its id. */
  async function confirmToken(token: unknown): Promise<number> {
    if (typeof token !== 'string' || !TOKEN.test(token)) throw validationError('Invalid token');
    return app.documents.transaction(async (documents: Documents) => {
      const user = await users.withSecrets({ confirmationToken: token }, documents);
      if (!user) throw validationError('Invalid token');
      await documents(USER_UID).update({
        documentId: String(user.documentId),
        data: { confirmed: true, confirmationToken: null },
      });
      return Number(user.id);
    });
  }

  return {
    newToken,
    send,
    async confirm(ctx) {
      await confirmToken(ctx.state.query.confirmation);
      ctx.redirect(api.config.emailConfirmationRedirection);
    },
    async confirmAnswering(ctx) {
      await answerWithJwt(ctx, deps, await confirmToken(bodyOf(ctx).confirmation));
    },
    /**
     * Strapi's answer `{ email, sent: true }` whatever the address: unknown, unconfirmed,
     * already confirmed or blocked (Strapi tells the last two apart, which lists accounts),
     * and whether or not the email could leave. Only an unconfirmed, unblocked account whose
     * own window admits it gets an email. With emailConfirmation off, nobody does.
     */
    async resend(ctx) {
      const email = requireEmail(bodyOf(ctx));
      const user = base === null ? null : await users.withSecrets({ email: { $eqi: email } });
      const waiting = user !== null && user.confirmed !== true && user.blocked !== true;
      if (waiting && limiter.admits(ctx, 'sendEmailConfirmation', accountOf(user.id))) {
        const token = newToken();
        try {
          // the token is stored only if the email left: a failed send changes nothing
          await app.documents.transaction(async (documents: Documents) => {
            const data = { confirmationToken: token };
            await documents(USER_UID).update({ documentId: String(user.documentId), data });
            await deliver(String(user.email), token);
          });
        } catch (err) {
          ctx.state.log.error({ err }, 'users-permissions: the confirmation email could not be sent');
        }
      }
      ctx.body = { email, sent: true };
    },
  };
}
