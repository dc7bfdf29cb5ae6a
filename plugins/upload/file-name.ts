import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Letters that decompose into no ASCII letter (or into a different one by convention), as the
 * transliteration under Strapi's slug (@sindresorhus/transliterate) writes them.
 */
const SPELLED: Record<string, string> = {
  ß: 'ss',
  ä: 'ae',
  Ä: 'Ae',
  ö: 'oe',
  Ö: 'Oe',
  ü: 'ue',
  Ü: 'Ue',
  Æ: 'AE',
  æ: 'ae',
  Ø: 'O',
  ø: 'o',
  Œ: 'OE',
  œ: 'oe',
  Þ: 'TH',
  þ: 'th',
  Ð: 'D',
  ð: 'd',
  Đ: 'D',
  đ: 'd',
  Ł: 'L',
  ł: 'l',
  ı: 'i',
  '&': ' and ',
  '🦄': ' unicorn ',
  '♥': ' love ',
};

/** Split camelCase words apart, as slugify's `decamelize` does (`MyPhoto` → `My Photo`). */
const decamelize = (text: string): string =>
  text
    .replace(/([A-Z]{2,})(\d+)/g, '$1 $2')
    .replace(/([a-z\d]+)([A-Z]{2,})/g, '$1 $2')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z\d]+)/g, '$1 $2');

/**
 * Strapi's `nameToSlug(name, { separator: '_', lowercase: false })`: Latin letters lose their
 * accents (`Été` → `Ete`), camelCase words are split, anything else between letters and digits
 * becomes one `_`. Letters of other scripts, which Strapi transliterates, are dropped.
 */
export function slugOf(name: string): string {
  const spelled = [...name.normalize()].map((c) => SPELLED[c] ?? c).join('');
  // canonical decomposition only: a ligature or a superscript is not a letter to keep (`x²` → `x`)
  const latin = spelled.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return decamelize(latin)
    .replace(/[^a-zA-Z\d]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Strapi's file hash: the slug of the file's name without the extension of the sent file (so
 * `fileInfo.name` "Holiday.jpeg" on `photo.jpg` gives `Holiday_jpeg_…`), then `_` and 10 random
 * hex digits. Cut to 200 characters, so that `thumbnail_<hash><ext>` still fits a file name.
 */
export function hashOf(name: string, sentName: string): string {
  const base = slugOf(path.basename(name, path.extname(sentName))).slice(0, 200);
  return `${base}_${randomBytes(5).toString('hex')}`;
}
