import type { App } from '../../core/index.ts';
import type { EmailMessage, EmailProvider } from './config.ts';

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

/**
 * Where the plugin's emails go: the configured provider or, without one, the log at info
 * level with the whole text, so a developer can follow a confirmation or reset link without
 * a mail server. (That puts live links in the log: configure a provider in production.)
 */
export function createEmailSender(app: App, provider: EmailProvider | undefined): EmailSender {
  return {
    async send(message) {
      if (provider) {
        await provider.send(message);
        return;
      }
      app.log.info(
        { email: { to: message.to, subject: message.subject } },
        `users-permissions email (no email provider configured) to ${message.to}: ` +
          `${message.subject}\n\n${message.text}`,
      );
    },
  };
}

/** Strapi's default "Reset password" email. */
export const resetPasswordEmail = (to: string, link: string): EmailMessage => ({
  to,
  subject: 'Reset password',
  text:
    'We heard that you lost your password. Sorry about that!\n\n' +
    "But don't worry! You can use the following link to reset your password:\n\n" +
    `${link}\n\nThanks.`,
});

/** Strapi's default "Account confirmation" email. */
export const confirmationEmail = (to: string, link: string): EmailMessage => ({
  to,
  subject: 'Account confirmation',
  text:
    'Thank you for registering!\n\n' +
    'You have to confirm your email address. Please click on the link below.\n\n' +
    `${link}\n\nThanks.`,
});
