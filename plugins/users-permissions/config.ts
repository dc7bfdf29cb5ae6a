import { configurationError, isPlainObject } from '../../core/index.ts';

export interface RoleConfig {
  name?: string;
  description?: string;
  /** action uids granted at every start (added when missing, never removed) */
  permissions: string[];
}

export interface EmailMessage { to: string; subject: string; text: string }
/** Where the plugin's emails go: an object with `send`, as Strapi's email providers. */
export interface EmailProvider { send(message: EmailMessage): Promise<void> | void }

export interface UsersPermissionsConfig {
  /** HS256 secret; `JWT_SECRET` when unset; required in production */
  jwtSecret?: string;
  jwt: { expiresIn: string | number };
  /** HMAC salt of API tokens; `API_TOKEN_SALT` when unset; required in production */
  apiTokenSalt?: string;
  register: { allowedFields: string[] };
  ratelimit: { enabled: boolean; interval: number; max: number };
  emailConfirmation: boolean;
  emailConfirmationRedirection: string;
  resetPasswordUrl: string;
  /** the role `type` new users get */
  defaultRole: string;
  roles: Record<string, RoleConfig>;
  email?: EmailProvider;
}

const strings = (v: unknown, where: string): string[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw configurationError(`users-permissions: ${where} must be an array of strings`);
  return v as string[];
};

/** The plugin's config (`config/plugins` → `'users-permissions'.config`) with Strapi's defaults. */
export function readUsersPermissionsConfig(raw: Record<string, unknown>, env: Record<string, string | undefined>): UsersPermissionsConfig {
  const jwt = isPlainObject(raw.jwt) ? raw.jwt : {};
  const register = isPlainObject(raw.register) ? raw.register : {};
  const rl = isPlainObject(raw.ratelimit) ? raw.ratelimit : {};
  const roles: Record<string, RoleConfig> = {};
  if (raw.roles !== undefined && !isPlainObject(raw.roles)) throw configurationError('users-permissions: roles must be an object of role types');
  for (const [type, r] of Object.entries(isPlainObject(raw.roles) ? raw.roles : {})) {
    if (!/^[a-z][a-z0-9-_]*$/i.test(type)) throw configurationError(`users-permissions: invalid role type "${type}"`);
    const role = isPlainObject(r) ? r : {};
    roles[type] = {
      name: typeof role.name === 'string' ? role.name : undefined,
      description: typeof role.description === 'string' ? role.description : undefined,
      permissions: strings(role.permissions, `roles.${type}.permissions`),
    };
  }
  const email = raw.email as EmailProvider | undefined;
  if (email !== undefined && typeof email?.send !== 'function') throw configurationError('users-permissions: email must be an object with a send(message) function');
  const positive = (v: unknown, fallback: number, name: string): number => {
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw configurationError(`users-permissions: ratelimit.${name} must be a positive integer`);
    return v;
  };
  return {
    jwtSecret: (typeof raw.jwtSecret === 'string' && raw.jwtSecret) || env.JWT_SECRET || undefined,
    jwt: { expiresIn: (typeof jwt.expiresIn === 'string' || typeof jwt.expiresIn === 'number') ? jwt.expiresIn : '30d' },
    apiTokenSalt: (typeof raw.apiTokenSalt === 'string' && raw.apiTokenSalt) || env.API_TOKEN_SALT || undefined,
    register: { allowedFields: strings(register.allowedFields, 'register.allowedFields') },
    ratelimit: { enabled: rl.enabled !== false, interval: positive(rl.interval, 60_000, 'interval'), max: positive(rl.max, 10, 'max') },
    emailConfirmation: raw.emailConfirmation === true,
    emailConfirmationRedirection: typeof raw.emailConfirmationRedirection === 'string' ? raw.emailConfirmationRedirection : '/',
    resetPasswordUrl: typeof raw.resetPasswordUrl === 'string' ? raw.resetPasswordUrl : 'http://localhost:1337/reset-password',
    defaultRole: typeof raw.defaultRole === 'string' ? raw.defaultRole : 'authenticated',
    roles,
    email,
  };
}
