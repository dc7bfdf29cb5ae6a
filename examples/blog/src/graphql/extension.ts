import type { Extension, ExtensionContext, GraphqlContext } from 'vellum/plugins/graphql';

const ARTICLE = 'api::article.article';
const WORDS_PER_MINUTE = 200;
const RESERVED_SLUGS = ['about', 'archive', 'feed', 'search'];

/** The words of a blocks value: its text nodes, at any depth. */
function countWords(blocks: unknown): number {
  let words = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      const { text, children } = node as { text?: unknown; children?: unknown };
      if (typeof text === 'string') words += text.split(/\s+/).filter(Boolean).length;
      visit(children);
    }
  };
  visit(blocks);
  return words;
}

/**
 * The blog's GraphQL additions, as a factory (`use` calls it when the schema is built, with
 * Nexus): a custom query answered by Vellum's own read, a computed field, and the config of
 * who may call what.
 */
export function blogExtension({ nexus, typeRegistry }: ExtensionContext): Extension {
  // with `shadowCRUD: false` in config/plugins nothing is generated to extend
  if (!typeRegistry.has('Article')) return {};
  return {
    types: [
      nexus.extendType({
        type: 'Article',
        definition(t) {
          // `readingTime` is a stored attribute of the blog; this one is computed from the body
          t.nonNull.int('readingMinutes', {
            description: `Minutes to read the body, at ${WORDS_PER_MINUTE} words a minute`,
            // the parent is the article as read by the query's one statement, every public attribute included
            resolve: (article: { body?: unknown }) =>
              Math.max(1, Math.ceil(countWords(article.body) / WORDS_PER_MINUTE)),
          });
        },
      }),
      nexus.extendType({
        type: 'Query',
        definition(t) {
          t.field('articlesByAuthor', {
            type: 'ArticleEntityResponseCollection',
            description: "An author's published articles, by the author's name",
            args: {
              name: nexus.nonNull(nexus.stringArg()),
              pagination: nexus.arg({ type: 'PaginationArg' }),
              sort: nexus.list(nexus.stringArg()),
            },
            // one statement, with the caller's rights on articles and on everything the selection populates
            resolve: (_parent, args: { name: string }, context: GraphqlContext, info) =>
              context.read(info, { uid: ARTICLE, filters: { author: { name: { $eq: args.name } } } }),
          });
        },
      }),
    ],
    resolversConfig: {
      // the same read rights as `articles`: the Public role may use it
      'Query.articlesByAuthor': {
        auth: { scope: [`${ARTICLE}.find`] },
        middlewares: ['global::server-timing'],
      },
      // on top of the create permission: slugs the frontend keeps for its own pages are refused
      'Mutation.createArticle': {
        policies: [{ name: 'api::article.slug-not-reserved', config: { reserved: RESERVED_SLUGS } }],
      },
    },
  };
}
