import {
  type App,
  checkScalar,
  fieldErrors,
  type FieldIssue,
  isPlainObject,
  type RequestContext,
} from '../../core/index.ts';
import type { EmailSender } from './email.ts';
import type { UsersPermissionsApi } from './index.ts';
import type { UserStore } from './users-store.ts';
import type { RateLimiter } from './rate-limit.ts';

/** What the /auth handlers are built from. */
export interface AuthDeps {
  app: App;
  api: UsersPermissionsApi;
  users: UserStore;
  mail: EmailSender;
  /** the auth routes' limiter (handlers also count the account a lookup found) */
  limiter: RateLimiter;
  /** the REST prefix (/api), for the links in emails */
  prefix: string;
}

export type Handler = (ctx: RequestContext) => Promise<void>;

/** The request body; `{}` when it is not an object, so its fields are reported missing. */
export function bodyOf(ctx: RequestContext): Record<string, unknown> {
  const body = ctx.request.body as unknown;
  return isPlainObject(body) ? body : {};
}

const issue = (name: string, message: string): FieldIssue => ({
  path: [name],
  message: `${name} ${message}`,
  name: 'ValidationError',
});

/**
 * Strapi's yup checks of the auth bodies: each named field is a non-empty string. Every
 * problem is reported; values are never echoed (some are passwords).
 */
export function requireStrings<K extends string>(
  body: Record<string, unknown>,
  names: readonly K[],
): Record<K, string> {
  const issues = stringIssues(body, names);
  if (issues.length > 0) throw fieldErrors(issues);
  return Object.fromEntries(names.map((name) => [name, body[name]])) as Record<K, string>;
}

/** What `requireStrings` would refuse, in the order of `names`, for checks that add their own. */
export function stringIssues(body: Record<string, unknown>, names: readonly string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const name of names) {
    const v = body[name];
    if (v === undefined || v === null || v === '') issues.push(issue(name, 'is a required field'));
    else if (typeof v !== 'string') issues.push(issue(name, 'must be a `string` type'));
  }
  return issues;
}

/** A required, well-formed `email` field (yup's `string().email().required()`), lowercased. */
export function requireEmail(body: Record<string, unknown>): string {
  const { email } = requireStrings(body, ['email']);
  const checked = checkScalar({ type: 'email' }, email, ['email']);
  if (!checked.ok) throw fieldErrors([checked.issue]);
  return email.toLowerCase();
}

/** `{jwt, user}` for a user who just proved who they are (the user read without secrets). */
export async function answerWithJwt(ctx: RequestContext, deps: AuthDeps, id: number): Promise<void> {
  const [jwt, user] = await Promise.all([deps.api.jwt().issue({ id }), deps.users.byId(id)]);
  ctx.body = { jwt, user };
}
