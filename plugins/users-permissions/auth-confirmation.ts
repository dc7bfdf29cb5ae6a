import { randomBytes } from 'node:crypto';
import { applicationError, validationError } from '../../core/errors.ts';
import type { RequestContext } from '../../core/http/server.ts';
import { confirmationEmail } from './email.ts';
import { bodyOf, requireEmail, type AuthDeps, type Handler } from './auth-shared.ts';
import type { Documents } from './users-store.ts';
import { USER_UID } from './schemas.ts';

export interface EmailConfirmation {
  /** GET /auth/email-confirmation?confirmation=T */
  confirm: Handler;
  /** POST /auth/send-email-confirmation */
  resend: Handler;
  /** a fresh confirmation token for a new or unconfirmed user */
  newToken(): string;
  /** email the confirmation link; call it inside the transaction that stores the token */
  send(ctx: RequestContext, to: string, token: string): Promise<void>;
}

// Tokens are hex; anything else (or absurdly long) cannot match, so it is not looked up.
const TOKEN = /^[0-9a-f]{1,256}$/;
// a host name or address with an optional port: nothing that could change the link's meaning
const HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/;

/** Email confirmation: the link in the email confirms the account and redirects. */
export function createEmailConfirmation(deps: AuthDeps): EmailConfirmation {
  const { app, api, users, mail, prefix } = deps;

  /**
   * Where the link points: `server.url` when the app sets it (behind a proxy the request's
   * Host is not the public address, and a configured value cannot be spoofed), else the
   * host the request was sent to. (Koa's `ctx.origin` is the client's Origin header.)
   */
  function origin(ctx: RequestContext): string {
    const configured = app.config.server.url;
    if (typeof configured === 'string' && /^https?:\/\//.test(configured)) return configured.replace(/\/+$/, '');
    return `${ctx.protocol}://${HOST.test(ctx.host) ? ctx.host : 'localhost'}`;
  }

  async function send(ctx: RequestContext, to: string, token: string): Promise<void> {
    const link = `${origin(ctx)}${prefix}/auth/email-confirmation?confirmation=${token}`;
    try {
      await mail.send(confirmationEmail(to, link));
    } catch (err) {
      ctx.state.log.error({ err }, 'users-permissions: the confirmation email could not be sent');
      throw applicationError('The confirmation email could not be sent');
    }
  }

  const newToken = (): string => randomBytes(20).toString('hex');

  return {
    newToken,
    send,
    async confirm(ctx) {
      const token = ctx.state.query.confirmation;
      if (typeof token !== 'string' || !TOKEN.test(token)) throw validationError('Invalid token');
      await app.documents.transaction(async (documents: Documents) => {
        const user = await users.withSecrets({ confirmationToken: token }, documents);
        if (!user) throw validationError('Invalid token');
        await documents(USER_UID).update({ documentId: String(user.documentId), data: { confirmed: true, confirmationToken: null } });
      });
      ctx.redirect(api.config.emailConfirmationRedirection);
    },
    async resend(ctx) {
      const email = requireEmail(bodyOf(ctx));
      const user = await users.withSecrets({ email: { $eqi: email } });
      if (!user) {
        ctx.body = { email, sent: true };
        return;
      }
      if (user.confirmed === true) throw applicationError('Already confirmed');
      if (user.blocked === true) throw applicationError('User blocked');
      const token = newToken();
      // the token is stored only if the email left: a failed send changes nothing
      await app.documents.transaction(async (documents: Documents) => {
        await documents(USER_UID).update({ documentId: String(user.documentId), data: { confirmationToken: token } });
        await send(ctx, String(user.email), token);
      });
      ctx.body = { email: user.email, sent: true };
    },
  };
}
