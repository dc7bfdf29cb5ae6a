import bcrypt from 'bcrypt';
import type { Knex } from 'knex';
import {
  type App,
  applicationError,
  type Doc,
  type DocumentApi,
  type PopulateTree,
  resolveFilters,
  uniqueViolationOf,
} from '../../core/index.ts';
import type { RoleService } from './roles.ts';
import { USER_UID } from './schemas.ts';

export type Documents = (uid: string) => DocumentApi;

/** What of a user to answer: the request's `populate` and `fields`. */
export interface UserView {
  populate?: PopulateTree;
  fields?: string[];
}

export interface UserStore {
  /** a user as clients may see it: private and password attributes are left out in SQL */
  byId(id: number, view?: UserView, documents?: Documents): Promise<Doc | null>;
  /**
   * The first user matching raw filters (private attributes allowed), with its password hash
   * and tokens: for checks only, never to be answered or logged.
   */
  withSecrets(where: Record<string, unknown>, documents?: Documents): Promise<Doc | null>;
  /** whether `plain` is the password of this stored hash */
  passwordMatches(plain: string, hash: unknown): Promise<boolean>;
  /**
   * Inside a transaction: wait for any other transaction claiming one of these emails or
   * usernames. The email is not unique in the schema (Strapi's is not either), so this makes
   * "check, then write" atomic; the unique username index stays the last word.
   */
  lockIdentifiers(trx: Knex, values: string[]): Promise<void>;
  /**
   * Which identifiers another user already holds. An email also clashes with a username
   * equal to it and the other way round, as Strapi checks, so a login identifier can only
   * ever name one user.
   */
  conflicts(
    documents: Documents,
    who: { email?: string; username?: string },
    exceptId?: number,
  ): Promise<{ email: boolean; username: boolean }>;
  /** the role new users get (`defaultRole`) */
  defaultRole(): Promise<Doc>;
}

// A bcrypt hash of a random string nobody knows: comparing against it when there is no
// user (or no password) costs what a real check costs, so timing does not reveal accounts.
const NO_USER_HASH = '$2b$10$A5j.dHyf7RUSy3yQ.4g1iuA7NPm.C/ksPMMmZrT0mixVDH/rpeucW';

const lower = (v: unknown): string | undefined => (typeof v === 'string' ? v.toLowerCase() : undefined);

/** Reads and checks of users shared by the auth and users routes. */
export function createUserStore(app: App, deps: { roles: RoleService; defaultRole: string }): UserStore {
  const where = (raw: Record<string, unknown>) => resolveFilters(app.registry, USER_UID, raw, { allowPrivate: true });

  return {
    byId(id, view = {}, documents = app.documents) {
      return documents(USER_UID).findFirst({ filters: where({ id }), populate: view.populate, fields: view.fields });
    },
    withSecrets(raw, documents = app.documents) {
      // the one read of users that needs the hash and the tokens
      return documents(USER_UID).findFirst({ filters: where(raw), raw: true });
    },
    async passwordMatches(plain, hash) {
      const real = typeof hash === 'string' && hash.startsWith('$2');
      const ok = await bcrypt.compare(plain, real ? hash : NO_USER_HASH);
      return real && ok;
    },
    async lockIdentifiers(trx, values) {
      // sorted, so two transactions never wait for each other's second lock
      for (const v of [...new Set(values.map((x) => x.toLowerCase()))].sort()) {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`up_users:identifier:${v}`]);
      }
    },
    async conflicts(documents, who, exceptId) {
      const email = lower(who.email);
      const username = who.username;
      const clauses: Record<string, unknown>[] = [];
      if (email !== undefined) clauses.push({ email: { $eqi: email } }, { username: { $eqi: email } });
      if (username !== undefined) clauses.push({ username: { $eq: username } }, { email: { $eqi: username } });
      if (clauses.length === 0) return { email: false, username: false };
      const raw: Record<string, unknown> = { $or: clauses };
      if (exceptId !== undefined) raw.id = { $ne: exceptId };
      const found = await documents(USER_UID).findMany({ filters: where(raw), fields: ['email', 'username'] });
      return {
        email: email !== undefined && found.some((u) => lower(u.email) === email || lower(u.username) === email),
        username:
          username !== undefined &&
          found.some((u) => u.username === username || lower(u.email) === username.toLowerCase()),
      };
    },
    async defaultRole() {
      const role = await deps.roles.byType(deps.defaultRole);
      if (!role) throw applicationError('Impossible to find the default role');
      return role;
    },
  };
}

/**
 * Which identifier a write found taken on its unique index (the username, or the email when
 * an app makes it unique): a write that raced past the check. Null for any other error.
 */
export function takenIdentifier(err: unknown): 'username' | 'email' | null {
  const name = uniqueViolationOf(err);
  return name === 'username' || name === 'email' ? name : null;
}
