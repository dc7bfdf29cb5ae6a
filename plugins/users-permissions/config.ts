import { expected, z } from '../../core/index.ts';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}
/** Where the plugin's emails go: an object with `send`, as Strapi's email providers. */
export interface EmailProvider {
  send(message: EmailMessage): Promise<void> | void;
}

const positiveInt = () => z.number().int().positive();
const emailProvider = z.custom<EmailProvider>(
  (v) => typeof v === 'object' && v !== null && typeof (v as { send?: unknown }).send === 'function',
  { message: expected('an object with a send(message) function') },
);
const roleType = z
  .string()
  .regex(/^[a-z][a-z0-9-_]*$/i, { message: expected('a role type (a letter, then letters, digits, - or _)') });

const roleSchema = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  /** action uids granted at every start (added when missing, never removed) */
  permissions: z.array(z.string()).default([]),
});
export type RoleConfig = z.output<typeof roleSchema>;

/** The plugin's config (`config/plugins` → `'users-permissions'.config`) with Strapi's defaults. */
export const usersPermissionsConfigSchema = z.object({
  /** HS256 secret; `JWT_SECRET` when unset (or empty); required in production */
  jwtSecret: z.string().optional(),
  jwt: z.object({ expiresIn: z.union([z.string(), z.number()]).default('30d') }).prefault({}),
  /** HMAC salt of API tokens; `API_TOKEN_SALT` when unset (or empty); required in production */
  apiTokenSalt: z.string().optional(),
  register: z.object({ allowedFields: z.array(z.string()).default([]) }).prefault({}),
  ratelimit: z
    .object({
      enabled: z.boolean().default(true),
      interval: positiveInt().default(60_000),
      max: positiveInt().default(10),
    })
    .prefault({}),
  emailConfirmation: z.boolean().default(false),
  emailConfirmationRedirection: z.string().default('/'),
  resetPasswordUrl: z.string().default('http://localhost:1337/reset-password'),
  /** the role `type` new users get */
  defaultRole: z.string().default('authenticated'),
  roles: z.record(roleType, roleSchema).default({}),
  email: emailProvider.optional(),
});

export type UsersPermissionsConfig = z.output<typeof usersPermissionsConfigSchema>;

/** The secrets left unset in the config come from the environment, as Strapi reads them. */
export function withEnvSecrets(
  config: UsersPermissionsConfig,
  env: Record<string, string | undefined>,
): UsersPermissionsConfig {
  return {
    ...config,
    jwtSecret: config.jwtSecret || env.JWT_SECRET || undefined,
    apiTokenSalt: config.apiTokenSalt || env.API_TOKEN_SALT || undefined,
  };
}
