import type { ResolverMiddleware } from 'vellum/plugins/graphql';

/**
 * A GraphQL resolver middleware: how long the field took, as a `Server-Timing` entry of the
 * response (browsers' devtools show it) and a debug log line. Registered as
 * `global::server-timing`; `options.name` renames the entry.
 */
export default (
  options: { name?: string } = {},
  { strapi }: { strapi: { log: { debug: (o: object, m: string) => void } } },
): ResolverMiddleware =>
  async (next, parent, args, context, info) => {
    const started = process.hrtime.bigint();
    try {
      return await next(parent, args, context, info);
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const name = options.name ?? info.fieldName;
      (context as { koaContext?: { append(h: string, v: string): void } }).koaContext?.append(
        'Server-Timing',
        `${name};dur=${ms.toFixed(1)}`,
      );
      strapi.log.debug({ field: `${info.parentType.name}.${info.fieldName}`, ms }, 'graphql field timed');
    }
  };
