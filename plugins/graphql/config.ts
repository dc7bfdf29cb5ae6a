import { z } from '../../core/index.ts';

/**
 * Apollo Server options Strapi 4 users have under `graphql.config.apolloServer`. Vellum has no
 * Apollo Server: `introspection` is applied, the keys below are accepted and ignored with a
 * warning at start (README, GraphQL, lists why each does not apply), anything else is refused.
 */
export const APOLLO_IGNORED = [
  'csrfPrevention',
  'persistedQueries',
  'cache',
  'plugins',
  'formatError',
  'validationRules',
  'allowBatchedHttpRequests',
  'includeStacktraceInErrorResponses',
  'debug',
  'nodeEnv',
  'status400ForVariableCoercionErrors',
  'stopOnTerminationSignals',
  'cors',
  'bodyParserConfig',
  'rootValue',
  'context',
  'dataSources',
  'mocks',
  'mockEntireSchema',
  'documentStore',
  'logger',
  'parseOptions',
  'fieldResolver',
  'gateway',
  'apollo',
] as const;

const apolloServer = z
  .object({
    /** whether `__schema`/`__type` may be asked; default: off in production unless `playgroundAlways` */
    introspection: z.boolean().optional(),
    ...Object.fromEntries(APOLLO_IGNORED.map((k) => [k, z.unknown().optional()])),
  })
  .strict()
  .default({});

/** -1 (Strapi's "no maximum") or a positive integer. */
const limit = z.union([z.literal(-1), z.number().int().positive()]);

/**
 * `config/plugins` → `graphql.config`, with Strapi 4's names. Defaults: Strapi 4's effective ones
 * (defaultLimit 10), except where Vellum is bounded by default: `depthLimit` 10 (the brief's
 * security text; Strapi leaves it unset), `maxLimit` 100 (Strapi: -1) and `amountLimit` 100, which
 * Strapi 4 never reads and Vellum enforces (see README, GraphQL).
 */
export const graphqlConfigSchema = z.object({
  endpoint: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*$/, { message: 'expected a path starting with /' })
    .default('/graphql'),
  /** generate types and queries from the content-types (off: only what extensions add, later) */
  shadowCRUD: z.boolean().default(true),
  /**
   * The schema's shape: `entity`, Strapi 4's (`ArticleEntity { id attributes }`, the brief's), or
   * `flat`, Strapi 5's (`Article { documentId … }`, `articles_connection { nodes pageInfo }`).
   */
  shape: z.enum(['entity', 'flat']).default('entity'),
  /** Strapi 5's option: with `shape: 'flat'`, adds the deprecated `data`, `attributes` and `id` fields */
  v4CompatibilityMode: z.boolean().default(false),
  /** selection sets nested deeper than this are refused (400); -1 or 0: no limit */
  depthLimit: z.number().int().min(-1).default(10),
  /**
   * Items a request may ask for (400 BAD_USER_INPUT past it): its root fields together (a list
   * counts its limit, anything else 1), and each nested list field of one parent, aliases added up.
   */
  amountLimit: z.number().int().positive().default(100),
  defaultLimit: z.number().int().positive().default(10),
  maxLimit: limit.default(100),
  /** the playground and introspection in production too (both are on in development and staging) */
  playgroundAlways: z.boolean().default(false),
  /** graphql-js `parse`'s `maxTokens`: a longer document is refused (400) before it is parsed in full */
  maxTokens: z.number().int().positive().default(10_000),
  /** characters of a `query`; more → 413 */
  maxDocumentSize: z.number().int().positive().default(100_000),
  /** characters of the `variables` as JSON; more → 413 */
  maxVariablesSize: z.number().int().positive().default(500_000),
  /** aliased fields of one operation, fragments expanded (each spread counted); more → 400 */
  maxAliases: z.number().int().positive().default(100),
  /** root fields of one operation, fragments expanded; more → 400 */
  maxRootFields: z.number().int().positive().default(50),
  apolloServer,
});

export type GraphqlConfig = z.output<typeof graphqlConfigSchema>;
