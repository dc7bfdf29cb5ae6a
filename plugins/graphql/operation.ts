/**
 * One GraphQL request, from its text to the answer's text. Parse and validation are cached per
 * document text. A query whose root fields are all shadow CRUD reads is answered without
 * `execute`: each root field is planned, read in one statement and spliced in as PostgreSQL
 * built it. Anything else (introspection, drafts, later custom resolvers) goes through graphql's
 * `execute`, whose Query resolvers run the same plans and whose other fields read values by
 * response key (the reads answer under aliases).
 */
import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isNonNullType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLFormattedError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import {
  type App,
  isAppError,
  mapLimit,
  noteRead,
  noteQueryRead,
  type RequestAuth,
  type RequestContext,
} from '../../core/index.ts';
import { FieldFailure, forbiddenError, formatError, requestError } from './errors.ts';
import { depthLimit } from './limits.ts';
import { checkDocumentCounts, checkQuerySize, checkVariablesSize, type DocumentLimits } from './document-limits.ts';
import { amountLimitError, isAmountLimit } from './plan/amount.ts';
import { fragmentsOf, type OperationContext, rootFields } from './plan/collect.ts';
import type { PlanContext, PlanLimits } from './plan/context.ts';
import { type ExtraArgs, planRoot, type RootPlan } from './plan/root.ts';
import { type GraphqlContext, readFor } from './read.ts';
import { byResponseKey, type ResolverContext } from './resolver-context.ts';
import { readRoot } from './run.ts';
import type { RootField, SchemaModel } from './schema/model.ts';

export interface GraphqlRequest {
  query: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** A parsed, valid document and its fragments by name. */
interface Parsed {
  doc: DocumentNode;
  fragments: Record<string, FragmentDefinitionNode>;
}

export interface Answer {
  status: number;
  body: string;
}

export interface OperationDeps {
  app: App;
  schema: GraphQLSchema;
  model: SchemaModel;
  limits: PlanLimits;
  depthLimit: number;
  /** parse's `maxTokens` */
  maxTokens: number;
  /** sizes and counts checked before validation (document-limits.ts) */
  documentLimits: DocumentLimits;
  /** whether `__schema` and `__type` may be asked (off in production unless `playgroundAlways`) */
  introspection: boolean;
}

/**
 * What `execute`'s resolvers get as their context: the request's auth and HTTP context, Strapi's
 * `state` and `koaContext`, and `read` (read.ts) for the app's resolvers.
 */
export interface ExecuteContext extends ResolverContext, GraphqlContext {
  /**
   * The read answering the field `info` resolves (on the type it is on, under its response key),
   * with the rights of the context it is called on: a field's wrapper passes its resolver a copy
   * whose `auth` an `auth` config may have granted the field's own action (extension/wrap.ts).
   */
  plan(this: ExecuteContext, info: GraphQLResolveInfo, root: RootField, extra?: ExtraArgs): RootPlan;
  forbidden: number;
}

/** A root field of the fast path: its plan, or what stopped it; `nonNull` when its type is. */
interface Planned {
  key: string;
  plan?: RootPlan;
  typename?: true;
  error?: unknown;
  nonNull?: boolean;
}

const CACHE_SIZE = 500;
const CACHED_LENGTH = 16 * 1024;
const READS_AT_ONCE = 4;

const answer = (status: number, errors: GraphQLFormattedError[]): Answer => ({
  status,
  body: JSON.stringify({ errors }),
});

/** The Query resolver `execute` calls for a shadow CRUD field: the same plan and read, parsed. */
export function rootResolver(app: App): (root: RootField) => GraphQLFieldResolver<unknown, unknown> {
  return (root) => async (_source, _args, context, info) => {
    const ctx = context as ExecuteContext;
    try {
      const plan = ctx.plan(info, root);
      const text = await readRoot(app, plan);
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw isAppError(err) ? err : new FieldFailure(err);
    }
  };
}

export function createOperations(deps: OperationDeps) {
  const { app, schema, model, limits } = deps;
  const rules = [
    ...specifiedRules,
    ...(deps.depthLimit > 0 ? [depthLimit(deps.depthLimit)] : []),
    ...(deps.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  // parsed and validated documents (with their fragments) by text: validation depends only on the schema and the text
  const cache = new Map<string, Parsed | GraphQLFormattedError[]>();

  function documentOf(query: string): Parsed | Answer {
    let cached = cache.get(query);
    if (!cached) {
      try {
        const doc = parse(query, { maxTokens: deps.maxTokens });
        const fragments = fragmentsOf(doc);
        // before validation, whose cost grows faster than the document's
        const tooMany = checkDocumentCounts(doc, fragments, deps.documentLimits);
        const errors = tooMany ? [new GraphQLError(tooMany.message)] : validate(schema, doc, rules);
        cached =
          errors.length > 0
            ? errors.map((e) => requestError(e.message, 'GRAPHQL_VALIDATION_FAILED', e))
            : { doc, fragments };
      } catch (err) {
        // graphql's parser and validation recurse: a document nested deeply enough overflows the stack
        // before maxTokens stops it (a RangeError, whose message says nothing to the caller)
        const e = err instanceof GraphQLError ? err : new GraphQLError('The document is nested too deeply');
        return answer(400, [requestError(e.message, 'GRAPHQL_PARSE_FAILED', e)]);
      }
      // the cache keeps what clients send again and again, not every large document a caller makes up
      if (query.length <= CACHED_LENGTH) {
        if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(query, cached);
      }
    }
    return Array.isArray(cached) ? answer(400, cached) : cached;
  }

  /** Plan every root field; null when one needs `execute` (not a shadow CRUD read, or drafts). */
  function planAll(op: OperationContext, operation: OperationDefinitionNode, auth: RequestAuth): Planned[] | null {
    const out: Planned[] = [];
    const queryFields = schema.getQueryType()?.getFields() ?? {};
    // every root field is a statement: however they are named, together they may read amountLimit items
    let items = 0;
    for (const [key, nodes] of rootFields(op, 'Query', operation.selectionSet)) {
      const name = nodes[0].name.value;
      if (name === '__typename') {
        out.push({ key, typename: true });
        continue;
      }
      const root = model.roots.get(name);
      if (!root || model.resolved.has(`Query.${name}`)) return null;
      const pc = planContext(op, auth, false);
      // Strapi 5's `articles: [Article]!`: a failure nulls the whole `data`, as GraphQL propagates it
      const nonNull = isNonNullType(queryFields[name]?.type);
      try {
        const plan = planRoot(pc, key, nodes, root);
        if (pc.readsDrafts || pc.resolved) return null;
        items += plan.window && plan.dataKeys.length > 0 ? (plan.window.limit ?? Number.POSITIVE_INFINITY) : 1;
        if (items > limits.amountLimit) throw amountLimitError(name, limits.amountLimit);
        out.push({ key, plan, nonNull });
      } catch (error) {
        // past amountLimit, the whole request is refused (400), as for depthLimit
        if (isAmountLimit(error)) throw error;
        out.push({ key, error, nonNull });
      }
    }
    return out;
  }

  const planContext = (op: OperationContext, auth: RequestAuth, forExecute: boolean): PlanContext => ({
    op,
    model,
    registry: app.registry,
    auth,
    limits,
    forExecute,
    forbidden: 0,
    readsDrafts: false,
    resolved: false,
  });

  /**
   * Shadow CRUD reads, each root field one statement, answered as text. A few at a time: one
   * request's root fields never hold more than `READS_AT_ONCE` of the pool's connections.
   */
  async function fast(planned: Planned[], http: RequestContext | undefined): Promise<Answer> {
    const fieldErrors: GraphQLFormattedError[][] = planned.map(() => []);
    const values = await mapLimit(planned, READS_AT_ONCE, async (p, i) => {
      if (p.typename) return '"Query"';
      if (p.error !== undefined || !p.plan) {
        fieldErrors[i].push(formatError(p.error, log));
        return 'null';
      }
      try {
        const text = await readRoot(app, p.plan);
        for (let n = 0; n < p.plan.forbidden; n++) fieldErrors[i].push(forbiddenError());
        return text;
      } catch (err) {
        fieldErrors[i].push(formatError(err, log));
        return 'null';
      }
    });
    // errors in the order of the fields, whichever read finished first
    const errors = fieldErrors.flat();
    const failedNonNull = planned.some((p, i) => p.nonNull && values[i] === 'null');
    const data = failedNonNull
      ? 'null'
      : `{${planned.map((p, i) => `${JSON.stringify(p.key)}:${values[i]}`).join(',')}}`;
    const head = errors.length > 0 ? `"errors":${JSON.stringify(errors)},` : '';
    // for the response cache: an answer with errors is never kept; one without, by what its plans read
    if (http) {
      if (errors.length > 0) noteRead(http.state, null);
      else for (const p of planned) if (p.plan) noteQueryRead(http.state, app.registry, p.plan.root.uid, p.plan);
    }
    return { status: 200, body: `{${head}"data":${data}}` };
  }

  const log = (err: unknown) => app.log.error({ err }, 'GraphQL: a field failed');

  async function slow(
    doc: DocumentNode,
    op: OperationContext,
    operationName: string | undefined,
    auth: RequestAuth,
    http: RequestContext | undefined,
  ): Promise<Answer> {
    const context: ExecuteContext = {
      auth,
      http,
      state: http?.state ?? { auth },
      koaContext: http,
      forbidden: 0,
      plan(info, root, extra = {}) {
        const pc = planContext(op, this.auth, true);
        const key = info.path.key as string;
        const plan = planRoot(pc, key, [...info.fieldNodes], root, info.parentType.name, extra);
        context.forbidden += pc.forbidden;
        return plan;
      },
      // the caller's own rights (an app's field is never granted one), whichever way it is called
      read: (info, options) => readFor(app, model, context, info, options),
    };
    const result = await execute({
      schema,
      document: doc,
      contextValue: context,
      variableValues: op.variables,
      operationName,
      fieldResolver: byResponseKey,
    });
    const errors = (result.errors ?? []).map((e) => formatError(e, log));
    for (let i = 0; i < context.forbidden; i++) errors.push(forbiddenError());
    const body = errors.length > 0 ? { errors, data: result.data ?? null } : { data: result.data ?? null };
    return { status: 200, body: JSON.stringify(body) };
  }

  /**
   * Answer one request (`get`: it came as a GET, which may only query). `http` is the request's
   * context, for the resolvers of operations that call REST's handlers (users-permissions).
   */
  async function run(request: GraphqlRequest, auth: RequestAuth, get: boolean, http?: RequestContext): Promise<Answer> {
    if (typeof request.query !== 'string' || request.query.trim() === '') {
      return answer(400, [requestError('GraphQL operations must contain a non-empty `query`.', 'BAD_REQUEST')]);
    }
    const tooLarge =
      checkQuerySize(request.query, deps.documentLimits) ?? checkVariablesSize(request.variables, deps.documentLimits);
    if (tooLarge) return answer(tooLarge.status, [requestError(tooLarge.message, 'BAD_REQUEST')]);
    const parsed = documentOf(request.query);
    if (!('doc' in parsed)) return parsed;
    const { doc, fragments } = parsed;
    const operationName = typeof request.operationName === 'string' ? request.operationName : undefined;
    const operation = getOperationAST(doc, operationName);
    if (!operation) {
      const message = operationName
        ? `Unknown operation named "${operationName}".`
        : 'Must provide operation name if query contains multiple operations.';
      return answer(400, [requestError(message, 'BAD_USER_INPUT')]);
    }
    if (get && operation.operation !== 'query') {
      return answer(405, [requestError('GET supports only query operation', 'INTERNAL_SERVER_ERROR')]);
    }
    const inputs = request.variables ?? {};
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
      return answer(400, [requestError('`variables` must be an object', 'BAD_USER_INPUT')]);
    }
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], inputs as Record<string, unknown>, {
      maxErrors: 10,
    });
    if (coerced.errors)
      return answer(
        400,
        coerced.errors.map((e) => requestError(e.message, 'BAD_USER_INPUT', e)),
      );
    const op: OperationContext = { schema, fragments, variables: coerced.coerced };
    if (operation.operation === 'query') {
      try {
        const planned = planAll(op, operation, auth);
        // only shadow CRUD reads, planned, are cached (`fast` says what they read); any other operation never
        if (planned) return await fast(planned, http);
      } catch (err) {
        if (isAmountLimit(err)) return answer(400, [formatError(err, log)]);
        throw err;
      }
    }
    return slow(doc, op, operationName, auth, http);
  }

  return { run };
}
