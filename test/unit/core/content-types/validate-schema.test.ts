import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../../core/errors.ts';
import { loadAppSchemas, type LoadedSchemas } from '../../../../core/content-types/load.ts';
import { validateSchemas } from '../../../../core/content-types/validate-schema.ts';
import type { Attributes, Component, ContentType } from '../../../../core/content-types/types.ts';

// The shared Strapi-layout fixture app used across Vellum's tests.
// the blog example ships the shared fixture's schemas unchanged
const FIXTURE = fileURLToPath(new URL('../../../../examples/blog', import.meta.url));
const ARTICLE = 'src/api/article/content-types/article/schema.json';
const AUTHOR = 'src/api/author/content-types/author/schema.json';
const TAG = 'src/api/tag/content-types/tag/schema.json';
const SEO = 'src/components/shared/seo.json';
const KEYWORD = 'src/components/shared/keyword.json';
const QUOTE = 'src/components/shared/quote.json';

let fixture: LoadedSchemas;
beforeAll(async () => {
  fixture = await loadAppSchemas(FIXTURE);
});

/** A fresh copy of the fixture with helpers to reach into it. */
function schemas() {
  const s = structuredClone(fixture);
  const ct = (name: string): ContentType => s.contentTypes.find((c) => c.uid === `api::${name}.${name}`)!;
  const comp = (uid: string): Component => s.components.find((c) => c.uid === uid)!;
  const attrs = (name: string): Record<string, any> => ct(name).attributes;
  const compAttrs = (uid: string): Record<string, any> => comp(uid).attributes;
  return { ...s, ct, comp, attrs, compAttrs };
}
type Fixture = ReturnType<typeof schemas>;

function note(
  overrides: Partial<ContentType> = {},
  attributes: Attributes = { title: { type: 'string' } },
): ContentType {
  return {
    uid: 'api::note.note',
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes' },
    options: {},
    pluginOptions: {},
    attributes,
    origin: 'api',
    source: 'src/api/note/content-types/note/schema.json',
    ...overrides,
  };
}

function errorOf(s: Fixture): Error {
  try {
    validateSchemas(s.contentTypes, s.components);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    return err as Error;
  }
  throw new Error('expected validateSchemas to throw');
}

type Case = [title: string, mutate: (s: Fixture) => void, message: string];

function runCases(cases: Case[]): void {
  it.each(cases)('%s', (_title, mutate, message) => {
    const s = schemas();
    mutate(s);
    expect(errorOf(s).message).toBe(message);
  });
}

describe('validateSchemas: accepted schemas', () => {
  it('accepts the blog fixture', () => {
    expect(() => validateSchemas(fixture.contentTypes, fixture.components)).not.toThrow();
  });

  it('accepts empty lists', () => {
    expect(() => validateSchemas([], [])).not.toThrow();
  });

  it('accepts valid constraints, defaults and relation pairs', () => {
    const s = schemas();
    Object.assign(s.attrs('article'), {
      big: { type: 'biginteger', min: '-9223372036854775808', max: '9223372036854775807', default: '42' },
      score: { type: 'float', min: -1.5, max: 1.5, default: 0.5 },
      code: { type: 'string', minLength: 2, maxLength: 2, regex: '^[A-Z]{2}$', unique: true, default: 'FR' },
      flag: { type: 'boolean', default: true, required: false, private: true },
      data: { type: 'json', default: { a: [1] } },
      doc: { type: 'blocks', default: [] },
      day: { type: 'date', default: '2024-01-01' },
      kind: { type: 'enumeration', enum: ['a', 'b'], default: 'b' },
      editor: { type: 'relation', relation: 'oneToOne', target: 'api::author.author', inversedBy: 'edited' },
      related: { type: 'relation', relation: 'oneWay', target: 'api::tag.tag' },
      parent: { type: 'relation', relation: 'manyToOne', target: 'api::article.article', inversedBy: 'children' },
      children: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'parent' },
      files: { type: 'media', multiple: true, allowedTypes: null },
      faq: { type: 'component', component: 'shared.keyword', repeatable: true, min: 1, max: 3 },
    });
    s.attrs('author').edited = {
      type: 'relation',
      relation: 'oneToOne',
      target: 'api::article.article',
      mappedBy: 'editor',
    };
    s.compAttrs('shared.quote').tags = { type: 'relation', relation: 'manyWay', target: 'api::tag.tag' };
    expect(() => validateSchemas(s.contentTypes, s.components)).not.toThrow();
  });

  it('names a schema declared in code by its uid', () => {
    const s = schemas();
    s.contentTypes.push(note({ source: '', attributes: { bad: { type: 'nope' } as never } }));
    expect(errorOf(s).message).toBe('api::note.note: attribute "bad" has unknown type "nope"');
  });
});

describe('validateSchemas: content-type rules', () => {
  runCases([
    [
      'kind',
      (s) => {
        (s.ct('article') as any).kind = 'collection';
      },
      `${ARTICLE}: kind must be "collectionType" or "singleType" (got "collection")`,
    ],
    [
      'info',
      (s) => {
        (s.ct('article') as any).info = 'Article';
      },
      `${ARTICLE}: info must be an object`,
    ],
    [
      'singularName missing',
      (s) => {
        delete (s.ct('article').info as any).singularName;
      },
      `${ARTICLE}: info.singularName is required`,
    ],
    [
      'pluralName missing',
      (s) => {
        (s.ct('article').info as any).pluralName = '';
      },
      `${ARTICLE}: info.pluralName is required`,
    ],
    [
      'singularName case',
      (s) => {
        s.ct('article').info.singularName = 'Article';
      },
      `${ARTICLE}: info.singularName "Article" must be kebab-case (^[a-z][a-z0-9-]*$)`,
    ],
    [
      'pluralName underscore',
      (s) => {
        s.ct('article').info.pluralName = 'blog_articles';
      },
      `${ARTICLE}: info.pluralName "blog_articles" must be kebab-case (^[a-z][a-z0-9-]*$)`,
    ],
    [
      'same names',
      (s) => {
        s.ct('article').info.pluralName = 'article';
      },
      `${ARTICLE}: info.singularName and info.pluralName must differ (both "article")`,
    ],
    [
      'folder name',
      (s) => {
        s.ct('article').info.singularName = 'post';
      },
      `${ARTICLE}: info.singularName "post" must equal the folder name "article"`,
    ],
    [
      'collectionName missing',
      (s) => {
        (s.ct('article') as any).collectionName = undefined;
      },
      `${ARTICLE}: collectionName is required`,
    ],
    [
      'collectionName chars',
      (s) => {
        s.ct('article').collectionName = 'Blog-Articles';
      },
      `${ARTICLE}: collectionName "Blog-Articles" must match ^[a-z_][a-z0-9_]*$`,
    ],
    [
      'collectionName digit',
      (s) => {
        s.ct('article').collectionName = '1articles';
      },
      `${ARTICLE}: collectionName "1articles" must match ^[a-z_][a-z0-9_]*$`,
    ],
    [
      'collectionName length',
      (s) => {
        s.ct('article').collectionName = 'a'.repeat(64);
      },
      `${ARTICLE}: collectionName "${'a'.repeat(64)}" is longer than 63 characters`,
    ],
    [
      'options',
      (s) => {
        (s.ct('article') as any).options = [];
      },
      `${ARTICLE}: options must be an object`,
    ],
    [
      'draftAndPublish',
      (s) => {
        s.ct('article').options.draftAndPublish = 'yes' as never;
      },
      `${ARTICLE}: options.draftAndPublish must be a boolean`,
    ],
    [
      'pluginOptions',
      (s) => {
        (s.ct('article') as any).pluginOptions = null;
      },
      `${ARTICLE}: pluginOptions must be an object`,
    ],
    [
      'attributes',
      (s) => {
        (s.ct('article') as any).attributes = [];
      },
      `${ARTICLE}: attributes must be an object`,
    ],
    [
      'duplicate uid',
      (s) => {
        s.contentTypes.push(
          note({ uid: 'api::tag.tag', source: 'x.json', info: { singularName: 'tag', pluralName: 'labels' } }),
        );
      },
      'x.json: content-type uid "api::tag.tag" is already declared by src/api/tag/content-types/tag/schema.json',
    ],
    [
      'shared singularName',
      (s) => {
        s.contentTypes.push(
          note({
            uid: 'api::blog.tag',
            collectionName: 'blog_tags',
            info: { singularName: 'tag', pluralName: 'blog-tags' },
          }),
        );
      },
      `src/api/note/content-types/note/schema.json: info.singularName "tag" is already used as ` +
        `info.singularName by ${TAG}`,
    ],
    [
      'shared pluralName',
      (s) => {
        s.contentTypes.push(note({ info: { singularName: 'note', pluralName: 'articles' } }));
      },
      `src/api/note/content-types/note/schema.json: info.pluralName "articles" is already used as ` +
        `info.pluralName by ${ARTICLE}`,
    ],
    [
      'singular vs plural',
      (s) => {
        s.contentTypes.push(
          note({ origin: 'plugin', uid: 'plugin::x.tags', info: { singularName: 'tags', pluralName: 'tagses' } }),
        );
      },
      `src/api/note/content-types/note/schema.json: info.singularName "tags" is already used as ` +
        `info.pluralName by ${TAG}`,
    ],
    [
      'shared collectionName',
      (s) => {
        s.contentTypes.push(note({ collectionName: 'authors' }));
      },
      `src/api/note/content-types/note/schema.json: collectionName "authors" is already used by ${AUTHOR}`,
    ],
  ]);
});

describe('validateSchemas: attribute names and flags', () => {
  it.each(['my-field', '1st', 'a b', 'é', ''])('rejects the attribute name %j', (name) => {
    const s = schemas();
    s.attrs('article')[name] = { type: 'string' };
    expect(errorOf(s).message).toBe(
      `${ARTICLE}: attribute "${name}" has an invalid name (letters, digits and _, not starting with a digit)`,
    );
  });

  it.each([
    'id',
    'documentId',
    'document_id',
    'createdAt',
    'updatedAt',
    'publishedAt',
    'createdBy',
    'updatedBy',
    'locale',
    'localizations',
    'status',
    '__component',
    '__proto__',
    'constructor',
    'prototype',
  ])('rejects the reserved attribute name %s', (name) => {
    const s = schemas();
    // defineProperty, so "__proto__" becomes a key as JSON.parse would make it.
    Object.defineProperty(s.attrs('article'), name, { value: { type: 'string' }, enumerable: true });
    expect(errorOf(s).message).toBe(`${ARTICLE}: attribute "${name}" uses a reserved name`);
  });

  it('rejects a reserved name coming from JSON', () => {
    const s = schemas();
    s.comp('shared.keyword').attributes = JSON.parse('{"value": {"type": "string"}, "__proto__": {"type": "string"}}');
    expect(errorOf(s).message).toBe(`${KEYWORD}: attribute "__proto__" uses a reserved name`);
  });

  runCases([
    [
      'not an object',
      (s) => {
        s.attrs('article').foo = 'string';
      },
      `${ARTICLE}: attribute "foo" must be an object`,
    ],
    [
      'no type',
      (s) => {
        s.attrs('article').foo = { required: true };
      },
      `${ARTICLE}: attribute "foo" has no type`,
    ],
    [
      'unknown type',
      (s) => {
        s.attrs('article').foo = { type: 'strnig' };
      },
      `${ARTICLE}: attribute "foo" has unknown type "strnig"`,
    ],
    [
      'unknown type marked unique',
      (s) => {
        s.attrs('article').foo = { type: 'strnig', unique: true };
      },
      `${ARTICLE}: attribute "foo" has unknown type "strnig"`,
    ],
    [
      'required',
      (s) => {
        s.attrs('article').title.required = 'true';
      },
      `${ARTICLE}: attribute "title" has "required" that is not a boolean`,
    ],
    [
      'private',
      (s) => {
        s.attrs('article').title.private = 1;
      },
      `${ARTICLE}: attribute "title" has "private" that is not a boolean`,
    ],
    [
      'unique flag',
      (s) => {
        s.attrs('author').name.unique = 'yes';
      },
      `${AUTHOR}: attribute "name" has "unique" that is not a boolean`,
    ],
    [
      'unique json',
      (s) => {
        s.attrs('article').meta.unique = true;
      },
      `${ARTICLE}: attribute "meta" cannot be unique (type "json")`,
    ],
    [
      'unique blocks',
      (s) => {
        s.attrs('article').body.unique = true;
      },
      `${ARTICLE}: attribute "body" cannot be unique (type "blocks")`,
    ],
    [
      'unique password',
      (s) => {
        s.attrs('article').secret = { type: 'password', unique: true };
      },
      `${ARTICLE}: attribute "secret" cannot be unique (type "password")`,
    ],
    [
      'unique relation',
      (s) => {
        s.attrs('article').tags.unique = true;
      },
      `${ARTICLE}: attribute "tags" cannot be unique (type "relation")`,
    ],
    [
      'unique media',
      (s) => {
        s.attrs('article').cover.unique = true;
      },
      `${ARTICLE}: attribute "cover" cannot be unique (type "media")`,
    ],
    [
      'unique component',
      (s) => {
        s.attrs('article').seo.unique = true;
      },
      `${ARTICLE}: attribute "seo" cannot be unique (type "component")`,
    ],
  ]);
});

describe('validateSchemas: scalar attribute rules', () => {
  const on = (patch: Record<string, unknown>) => (s: Fixture) => {
    s.attrs('article').foo = patch;
  };
  const fooErr = (msg: string) => `${ARTICLE}: attribute "foo" ${msg}`;
  runCases([
    ['enum missing', on({ type: 'enumeration' }), fooErr('must list its values in a non-empty "enum" array')],
    ['enum empty', on({ type: 'enumeration', enum: [] }), fooErr('must list its values in a non-empty "enum" array')],
    [
      'enum not array',
      on({ type: 'enumeration', enum: 'a,b' }),
      fooErr('must list its values in a non-empty "enum" array'),
    ],
    ['enum duplicate', on({ type: 'enumeration', enum: ['a', 'b', 'a'] }), fooErr('lists enum value "a" twice')],
    [
      'enum empty value',
      on({ type: 'enumeration', enum: ['a', ''] }),
      fooErr('has enum value ""; values must be non-empty strings'),
    ],
    [
      'enum number value',
      on({ type: 'enumeration', enum: ['a', 2] }),
      fooErr('has enum value 2; values must be non-empty strings'),
    ],
    [
      'enum default',
      on({ type: 'enumeration', enum: ['a', 'b'], default: 'c' }),
      fooErr('has default "c", which is not one of its enum values'),
    ],
    ['min not number', on({ type: 'integer', min: '0' }), fooErr('has "min" "0", which is not a number')],
    ['max not finite', on({ type: 'float', max: null }), fooErr('has "max" null, which is not a number')],
    ['biginteger min', on({ type: 'biginteger', min: '1.5' }), fooErr('has "min" "1.5", which is not an integer')],
    ['min > max', on({ type: 'decimal', min: 10, max: 1 }), fooErr('has "min" 10 greater than "max" 1')],
    [
      'big min > max',
      on({ type: 'biginteger', min: '9223372036854775807', max: '9223372036854775806' }),
      fooErr('has "min" 9223372036854775807 greater than "max" 9223372036854775806'),
    ],
    ['default below min', on({ type: 'integer', min: 1, default: 0 }), fooErr('has default 0 below "min" 1')],
    [
      'default above max',
      on({ type: 'biginteger', max: '10', default: '11' }),
      fooErr('has default 11 above "max" 10'),
    ],
    [
      'minLength negative',
      on({ type: 'string', minLength: -1 }),
      fooErr('has "minLength" that is not a non-negative integer'),
    ],
    [
      'maxLength fraction',
      on({ type: 'text', maxLength: 2.5 }),
      fooErr('has "maxLength" that is not a non-negative integer'),
    ],
    [
      'maxLength string',
      on({ type: 'text', maxLength: '10' }),
      fooErr('has "maxLength" that is not a non-negative integer'),
    ],
    [
      'minLength > maxLength',
      on({ type: 'string', minLength: 5, maxLength: 3 }),
      fooErr('has "minLength" 5 greater than "maxLength" 3'),
    ],
    ['regex type', on({ type: 'string', regex: 5 }), fooErr('has "regex" that is not a string')],
    [
      'regex compile',
      on({ type: 'string', regex: '([a-z' }),
      fooErr('has "regex" that does not compile (Invalid regular expression: /([a-z/: Unterminated character class)'),
    ],
    ['default integer', on({ type: 'integer', default: '5' }), fooErr('has default "5", which is not a valid integer')],
    [
      'default integer fraction',
      on({ type: 'integer', default: 1.5 }),
      fooErr('has default 1.5, which is not a valid integer'),
    ],
    [
      'default biginteger',
      on({ type: 'biginteger', default: 'ten' }),
      fooErr('has default "ten", which is not a valid biginteger'),
    ],
    ['default float', on({ type: 'float', default: '1.5' }), fooErr('has default "1.5", which is not a valid float')],
    [
      'default boolean',
      on({ type: 'boolean', default: 'false' }),
      fooErr('has default "false", which is not a valid boolean'),
    ],
    ['default string', on({ type: 'string', default: 5 }), fooErr('has default 5, which is not a valid string')],
    ['default datetime', on({ type: 'datetime', default: 0 }), fooErr('has default 0, which is not a valid datetime')],
    [
      'default blocks',
      on({ type: 'blocks', default: 'hello' }),
      fooErr('has default "hello", which is not a valid blocks'),
    ],
  ]);
});

describe('validateSchemas: relation rules', () => {
  const authorErr = (msg: string) => `${ARTICLE}: attribute "author" ${msg}`;
  runCases([
    ...['morphToOne', 'morphToMany', 'morphOne', 'morphMany'].map(
      (kind): Case => [
        kind,
        (s) => {
          s.attrs('article').author = { type: 'relation', relation: kind };
        },
        authorErr(`uses relation "${kind}", which is not supported (no polymorphic relations)`),
      ],
    ),
    [
      'unknown kind',
      (s) => {
        s.attrs('article').author.relation = 'oneToFew';
      },
      authorErr('has unknown relation kind "oneToFew"'),
    ],
    [
      'missing kind',
      (s) => {
        delete s.attrs('article').author.relation;
      },
      authorErr('has unknown relation kind nothing'),
    ],
    [
      'unknown target',
      (s) => {
        s.attrs('article').author.target = 'api::writer.writer';
      },
      authorErr('targets unknown content-type "api::writer.writer"'),
    ],
    [
      'component target',
      (s) => {
        s.attrs('article').author.target = 'shared.seo';
      },
      authorErr('targets unknown content-type "shared.seo"'),
    ],
    [
      'both sides',
      (s) => {
        s.attrs('article').author.mappedBy = 'articles';
      },
      authorErr('cannot have both mappedBy and inversedBy'),
    ],
    [
      'oneWay with inversedBy',
      (s) => {
        s.attrs('article').author.relation = 'oneWay';
      },
      authorErr('is oneWay, which cannot use mappedBy/inversedBy'),
    ],
    [
      'manyWay with mappedBy',
      (s) => {
        s.attrs('tag').misc = {
          type: 'relation',
          relation: 'manyWay',
          target: 'api::article.article',
          mappedBy: 'tags',
        };
      },
      `${TAG}: attribute "misc" is manyWay, which cannot use mappedBy/inversedBy`,
    ],
    [
      'owner paired with a manyWay',
      (s) => {
        s.attrs('author').articles.relation = 'manyWay';
      },
      authorErr('is manyToOne, so api::author.author.articles must be oneToMany (found "manyWay")'),
    ],
    [
      'inversedBy missing attribute',
      (s) => {
        s.attrs('article').author.inversedBy = 'posts';
      },
      authorErr('has inversedBy "posts", but api::author.author.posts is not a relation to api::article.article'),
    ],
    [
      'inversedBy names a scalar',
      (s) => {
        s.attrs('article').author.inversedBy = 'bio';
      },
      authorErr('has inversedBy "bio", but api::author.author.bio is not a relation to api::article.article'),
    ],
    [
      'inversedBy names an inherited key',
      (s) => {
        s.attrs('article').author.inversedBy = 'toString';
      },
      authorErr('has inversedBy "toString", but api::author.author.toString is not a relation to api::article.article'),
    ],
    [
      'inversedBy not a string',
      (s) => {
        s.attrs('article').author.inversedBy = 3;
      },
      authorErr('has "inversedBy" that is not an attribute name'),
    ],
    [
      'other side targets elsewhere',
      (s) => {
        s.attrs('author').articles.target = 'api::tag.tag';
      },
      authorErr('has inversedBy "articles", but api::author.author.articles is not a relation to api::article.article'),
    ],
    [
      'other side points elsewhere',
      (s) => {
        s.attrs('author').articles.mappedBy = 'writer';
      },
      authorErr('has inversedBy "articles", but api::author.author.articles does not have mappedBy "author"'),
    ],
    [
      'other side is also owner',
      (s) => {
        delete s.attrs('author').articles.mappedBy;
        s.attrs('author').articles.inversedBy = 'author';
      },
      authorErr('has inversedBy "articles", but api::author.author.articles does not have mappedBy "author"'),
    ],
    [
      'kind mismatch (owner)',
      (s) => {
        s.attrs('author').articles.relation = 'manyToMany';
      },
      authorErr('is manyToOne, so api::author.author.articles must be oneToMany (found "manyToMany")'),
    ],
    [
      'kind mismatch (oneToOne)',
      (s) => {
        s.attrs('article').author.relation = 'oneToOne';
      },
      authorErr('is oneToOne, so api::author.author.articles must be oneToOne (found "oneToMany")'),
    ],
    [
      'kind mismatch (manyToMany)',
      (s) => {
        s.attrs('tag').articles.relation = 'oneToMany';
      },
      `${ARTICLE}: attribute "tags" is manyToMany, so api::tag.tag.articles must be manyToMany (found "oneToMany")`,
    ],
    [
      'inverse side without owner',
      (s) => {
        delete s.attrs('article').tags.inversedBy;
      },
      `${TAG}: attribute "articles" has mappedBy "tags", but api::article.article.tags does not have ` +
        `inversedBy "articles"`,
    ],
    [
      'inverse side names missing owner',
      (s) => {
        s.attrs('tag').articles.mappedBy = 'labels';
        delete s.attrs('article').tags.inversedBy;
      },
      `${TAG}: attribute "articles" has mappedBy "labels", but api::article.article.labels is not a relation ` +
        `to api::tag.tag`,
    ],
    [
      'self-pointing inversedBy',
      (s) => {
        s.attrs('article').next = {
          type: 'relation',
          relation: 'oneToOne',
          target: 'api::article.article',
          inversedBy: 'next',
        };
      },
      `${ARTICLE}: attribute "next" has inversedBy "next", but api::article.article.next does not have mappedBy "next"`,
    ],
  ]);
});

describe('validateSchemas: media, component and dynamic zone rules', () => {
  runCases([
    [
      'media multiple',
      (s) => {
        s.attrs('article').cover.multiple = 'no';
      },
      `${ARTICLE}: attribute "cover" has "multiple" that is not a boolean`,
    ],
    [
      'media allowedTypes',
      (s) => {
        s.attrs('article').cover.allowedTypes = ['images', 'pdfs'];
      },
      `${ARTICLE}: attribute "cover" has "allowedTypes" ["images","pdfs"]; allowed values are images, files, ` +
        `videos, audios`,
    ],
    [
      'media allowedTypes string',
      (s) => {
        s.attrs('article').cover.allowedTypes = 'images';
      },
      `${ARTICLE}: attribute "cover" has "allowedTypes" "images"; allowed values are images, files, videos, audios`,
    ],
    [
      'unknown component',
      (s) => {
        s.attrs('article').seo.component = 'shared.sea';
      },
      `${ARTICLE}: attribute "seo" uses unknown component "shared.sea"`,
    ],
    [
      'component missing',
      (s) => {
        delete s.attrs('article').seo.component;
      },
      `${ARTICLE}: attribute "seo" uses unknown component nothing`,
    ],
    [
      'repeatable',
      (s) => {
        s.attrs('author').socials.repeatable = 'true';
      },
      `${AUTHOR}: attribute "socials" has "repeatable" that is not a boolean`,
    ],
    [
      'component min negative',
      (s) => {
        s.attrs('author').socials.min = -1;
      },
      `${AUTHOR}: attribute "socials" has "min" that is not a non-negative integer`,
    ],
    [
      'component max fraction',
      (s) => {
        s.attrs('author').socials.max = 1.5;
      },
      `${AUTHOR}: attribute "socials" has "max" that is not a non-negative integer`,
    ],
    [
      'component min > max',
      (s) => {
        Object.assign(s.attrs('author').socials, { min: 3, max: 2 });
      },
      `${AUTHOR}: attribute "socials" has "min" 3 greater than "max" 2`,
    ],
    [
      'component contains itself',
      (s) => {
        s.compAttrs('shared.keyword').again = { type: 'component', component: 'shared.keyword' };
      },
      `${KEYWORD}: attribute "again" makes component "shared.keyword" contain itself (shared.keyword.again ` +
        `-> shared.keyword)`,
    ],
    [
      'component contains itself transitively',
      (s) => {
        s.compAttrs('shared.keyword').parent = { type: 'component', component: 'shared.seo' };
      },
      `${KEYWORD}: attribute "parent" makes component "shared.keyword" contain itself (shared.keyword.parent ` +
        `-> shared.seo.keywords -> shared.keyword)`,
    ],
    [
      'dz components missing',
      (s) => {
        delete s.attrs('article').blocks.components;
      },
      `${ARTICLE}: attribute "blocks" must list at least one component in "components"`,
    ],
    [
      'dz components empty',
      (s) => {
        s.attrs('article').blocks.components = [];
      },
      `${ARTICLE}: attribute "blocks" must list at least one component in "components"`,
    ],
    [
      'dz unknown component',
      (s) => {
        s.attrs('article').blocks.components.push('shared.video');
      },
      `${ARTICLE}: attribute "blocks" uses unknown component "shared.video"`,
    ],
    [
      'dz duplicate component',
      (s) => {
        s.attrs('article').blocks.components.push('shared.quote');
      },
      `${ARTICLE}: attribute "blocks" lists a component twice in "components"`,
    ],
    [
      'dz max',
      (s) => {
        s.attrs('article').blocks.max = -2;
      },
      `${ARTICLE}: attribute "blocks" has "max" that is not a non-negative integer`,
    ],
    [
      'dz in component',
      (s) => {
        s.compAttrs('shared.seo').extra = { type: 'dynamiczone', components: ['shared.quote'] };
      },
      `${SEO}: attribute "extra" is a dynamic zone, which components cannot contain`,
    ],
  ]);
});

describe('validateSchemas: component rules', () => {
  const personErr = (msg: string) => `${QUOTE}: attribute "person" ${msg}`;
  runCases([
    [
      'relation inversedBy',
      (s) => {
        s.compAttrs('shared.quote').person.inversedBy = 'quotes';
      },
      personErr(
        'is a relation in a component, which cannot use mappedBy/inversedBy (component relations are one-directional)',
      ),
    ],
    [
      'relation mappedBy',
      (s) => {
        s.compAttrs('shared.quote').person.mappedBy = 'articles';
      },
      personErr(
        'is a relation in a component, which cannot use mappedBy/inversedBy (component relations are one-directional)',
      ),
    ],
    [
      'relation to a component',
      (s) => {
        s.compAttrs('shared.quote').person.target = 'shared.seo';
      },
      personErr('targets unknown content-type "shared.seo"'),
    ],
    [
      'relation morph',
      (s) => {
        s.compAttrs('shared.quote').person.relation = 'morphToMany';
      },
      personErr('uses relation "morphToMany", which is not supported (no polymorphic relations)'),
    ],
    [
      'unknown attribute type',
      (s) => {
        s.compAttrs('shared.quote').title.type = 'varchar';
      },
      `${QUOTE}: attribute "title" has unknown type "varchar"`,
    ],
    [
      'reserved name',
      (s) => {
        s.compAttrs('shared.quote').id = { type: 'integer' };
      },
      `${QUOTE}: attribute "id" uses a reserved name`,
    ],
    [
      'bad uid',
      (s) => {
        s.components.push({
          ...s.comp('shared.quote'),
          uid: 'shared.my quote',
          source: 'src/components/shared/my quote.json',
        });
      },
      'src/components/shared/my quote.json: component uid "shared.my quote" must be <category>.<name> ' +
        '(letters, digits, - and _)',
    ],
    [
      'duplicate uid',
      (s) => {
        s.components.push({ ...s.comp('shared.quote'), source: 'plugin.json' });
      },
      `plugin.json: component uid "shared.quote" is already declared by ${QUOTE}`,
    ],
    [
      'collectionName',
      (s) => {
        s.comp('shared.quote').collectionName = 'components-quotes';
      },
      `${QUOTE}: collectionName "components-quotes" must match ^[a-z_][a-z0-9_]*$`,
    ],
    [
      'attributes',
      (s) => {
        (s.comp('shared.quote') as any).attributes = null;
      },
      `${QUOTE}: attributes must be an object`,
    ],
  ]);
});
