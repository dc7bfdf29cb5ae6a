import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type App, type Doc, notFound, resolveFilters, validationError } from '../../core/index.ts';
import { API_TOKEN_UID } from './schemas.ts';

export type TokenType = 'read-only' | 'full-access' | 'custom';
export const TOKEN_TYPES: readonly TokenType[] = ['read-only', 'full-access', 'custom'];
/** Strapi's choices: unlimited, 7, 30 or 90 days */
export const LIFESPAN_DAYS: readonly (number | null)[] = [null, 7, 30, 90];
const DAY_MS = 24 * 60 * 60 * 1000;
/** lastUsedAt is written at most this often per token: a write per request would double a read's cost */
const LAST_USED_EVERY_MS = 60_000;

export interface TokenInput {
  name: string;
  description?: string;
  type: TokenType;
  /** custom tokens: the action uids they may use */
  permissions?: string[];
  /** days; null or undefined: never expires */
  lifespan?: number | null;
}

/**
 * What a caller calls the input's fields in messages: a program passes `TokenInput`'s own names,
 * the CLI its options (`--actions` for `permissions`), so both tell the same rule the same way.
 */
export type TokenInputNames = Record<'name' | 'type' | 'permissions' | 'lifespan', string>;
const FIELD_NAMES: TokenInputNames = { name: 'name', type: 'type', permissions: 'permissions', lifespan: 'lifespan' };

/**
 * What is wrong with `input` (the first problem), or null. Pure, so the CLI can tell a mistake
 * before it starts an app; `create` enforces the same rules.
 */
export function checkTokenInput(input: TokenInput, names: TokenInputNames = FIELD_NAMES): string | null {
  if (typeof input.name !== 'string' || input.name.trim() === '') return `create needs ${names.name}`;
  if (!TOKEN_TYPES.includes(input.type)) return `${names.type} must be one of ${TOKEN_TYPES.join(', ')}`;
  if (input.type === 'custom' && !input.permissions?.length)
    return `${names.type} custom needs ${names.permissions} (action uids)`;
  if (!LIFESPAN_DAYS.includes(input.lifespan ?? null)) {
    const days = LIFESPAN_DAYS.filter((d) => d !== null);
    return `${names.lifespan} must be ${days.join(', ')} (days), or left out for a token that never expires`;
  }
  return null;
}

/** A token as shown: never its key nor its hash. */
export type TokenInfo = Doc;

export interface TokenService {
  /** create a token; `accessKey` is the key itself, shown this once */
  create(input: TokenInput): Promise<{ token: TokenInfo; accessKey: string }>;
  list(): Promise<TokenInfo[]>;
  /** delete by id or name; the deleted token, or NotFoundError */
  revoke(idOrName: string | number): Promise<TokenInfo>;
  /** the token a key belongs to, when valid and unexpired */
  verify(key: string): Promise<TokenInfo | null>;
  /** whether a token of this kind grants `action` */
  allows(token: TokenInfo, action: string): boolean;
}

/** Only find and findOne: of content-types, and the upload plugin's read routes. */
const isReadAction = (action: string): boolean => /\.(find|findOne)$/.test(action);

/**
 * API tokens as Strapi keeps them: the key is 128 random bytes (hex), shown once; the
 * database holds HMAC-SHA512(salt, key), so a leaked table does not leak keys and changing
 * the salt invalidates every token.
 */
export function createTokenService(app: App, salt: () => string): TokenService {
  const docs = () => app.documents(API_TOKEN_UID);
  const hash = (key: string): string => createHmac('sha512', salt()).update(key).digest('hex');
  const shown = (doc: Doc): TokenInfo => {
    const { accessKey: _key, ...rest } = doc;
    return rest;
  };
  const lastWrite = new Map<string, number>();
  // Tokens verified, by their key's hash: a request with a token then costs no lookup. Used and
  // kept only while the app hears every write of tokens (`generations.live`): a write of the type,
  // in this instance or another, clears them before anything can read it (its generation's bump);
  // and one is kept only when no write of tokens came while it was looked up.
  const verified = new Map<string, Doc>();
  const { generations } = app;
  generations.subscribe((key) => {
    if (key === API_TOKEN_UID) verified.clear();
  });
  const lookUp = async (h: string): Promise<Doc | null> => {
    const startedAt = generations.seq;
    const filters = resolveFilters(app.registry, API_TOKEN_UID, { accessKey: h }, { allowPrivate: true });
    // raw: the stored hash, compared below
    const token = await docs().findFirst({ filters, raw: true });
    if (!token) return null;
    // the lookup found an equal hash; compare again in constant time rather than trust the index's comparison
    const stored = Buffer.from(String(token.accessKey), 'hex');
    const given = Buffer.from(h, 'hex');
    if (stored.length !== given.length || !timingSafeEqual(stored, given)) return null;
    if (generations.keepable(startedAt, [API_TOKEN_UID])) verified.set(h, token);
    return token;
  };

  return {
    async create(input) {
      const problem = checkTokenInput(input);
      if (problem) throw validationError(problem);
      const lifespan = input.lifespan ?? null;
      const permissions = input.type === 'custom' ? (input.permissions ?? []) : [];
      const key = randomBytes(128).toString('hex');
      const doc = await docs().create({
        data: {
          name: input.name.trim(),
          description: input.description ?? '',
          type: input.type,
          accessKey: hash(key),
          permissions,
          lifespan: lifespan === null ? null : String(lifespan * DAY_MS),
          expiresAt: lifespan === null ? null : new Date(Date.now() + lifespan * DAY_MS).toISOString(),
        },
      });
      return { token: shown(doc), accessKey: key };
    },
    async list() {
      return (await docs().findMany({ sort: [{ field: { kind: 'system', name: 'id' }, order: 'asc' }] })).map(shown);
    },
    async revoke(idOrName) {
      const byId = typeof idOrName === 'number' || /^\d+$/.test(String(idOrName));
      const filters = resolveFilters(
        app.registry,
        API_TOKEN_UID,
        byId ? { id: Number(idOrName) } : { name: String(idOrName) },
      );
      const found = await docs().findFirst({ filters });
      if (!found) throw notFound(`No API token ${byId ? 'with id' : 'named'} ${idOrName}`);
      await docs().delete({ documentId: found.documentId as string });
      return shown(found);
    },
    async verify(key) {
      if (!/^[0-9a-f]{1,512}$/i.test(key)) return null;
      const h = hash(key);
      const token = (generations.live ? verified.get(h) : undefined) ?? (await lookUp(h));
      if (!token) return null;
      if (token.expiresAt && Date.parse(String(token.expiresAt)) <= Date.now()) return null;
      const documentId = String(token.documentId);
      const now = Date.now();
      if (now - (lastWrite.get(documentId) ?? 0) >= LAST_USED_EVERY_MS) {
        lastWrite.set(documentId, now);
        await docs().update({ documentId, data: { lastUsedAt: new Date(now).toISOString() } });
      }
      return shown(token);
    },
    allows(token, action) {
      switch (token.type) {
        case 'full-access':
          return true;
        case 'read-only':
          return isReadAction(action);
        default:
          return Array.isArray(token.permissions) && token.permissions.includes(action);
      }
    },
  };
}
