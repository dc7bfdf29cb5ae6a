/** Strapi's `blocks` rich text (what the article body holds), written as a few short calls. */

export type Block = Record<string, unknown>;

const text = (value: string): Block => ({ type: 'text', text: value });

export const paragraph = (value: string): Block => ({ type: 'paragraph', children: [text(value)] });

export const heading = (value: string): Block => ({ type: 'heading', level: 2, children: [text(value)] });

export const list = (items: string[]): Block => ({
  type: 'list',
  format: 'unordered',
  children: items.map((item) => ({ type: 'list-item', children: [text(item)] })),
});

export const code = (value: string, language: string): Block => ({
  type: 'code',
  language,
  children: [text(value)],
});
