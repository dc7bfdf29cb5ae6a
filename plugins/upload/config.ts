import { configurationError, isPlainObject, type PlainObject } from '../../core/index.ts';

export interface UploadConfig {
  /** 'local', a provider package name, or a module object with `init` */
  provider: string | { init(options: PlainObject): unknown };
  providerOptions: PlainObject;
  /** bytes; larger uploads get 413 */
  sizeLimit: number;
  /** responsive formats: name → largest dimension in px (made only when the original is larger) */
  breakpoints: Record<string, number>;
  /** Strapi's upload settings (its Media Library settings page): re-encode originals at quality 80 */
  sizeOptimization: boolean;
  /** …rotate them by their EXIF orientation */
  autoOrientation: boolean;
  /** …and make the breakpoints' formats (the thumbnail is made either way) */
  responsiveDimensions: boolean;
}

/** Strapi 5's defaults for its upload settings. */
export const DEFAULT_SETTINGS = { sizeOptimization: true, responsiveDimensions: true, autoOrientation: false } as const;

export const DEFAULT_SIZE_LIMIT = 200 * 1024 * 1024;
export const DEFAULT_BREAKPOINTS = { large: 1000, medium: 750, small: 500 };

/** `config/plugins` → `upload.config`, with Strapi's defaults. */
export function readUploadConfig(raw: PlainObject): UploadConfig {
  const sizeLimit = raw.sizeLimit ?? DEFAULT_SIZE_LIMIT;
  if (typeof sizeLimit !== 'number' || !Number.isFinite(sizeLimit) || sizeLimit <= 0) {
    throw configurationError('config/plugins: upload.config.sizeLimit must be a positive number of bytes');
  }
  const breakpoints = raw.breakpoints ?? DEFAULT_BREAKPOINTS;
  if (!isPlainObject(breakpoints) || Object.values(breakpoints).some((v) => typeof v !== 'number' || !(v > 0))) {
    throw configurationError('config/plugins: upload.config.breakpoints must map names to positive sizes in pixels');
  }
  const provider = raw.provider ?? 'local';
  if (typeof provider !== 'string' && !(isPlainObject(provider) && typeof provider.init === 'function')) {
    throw configurationError('config/plugins: upload.config.provider must be a provider name or a module with init()');
  }
  const providerOptions = raw.providerOptions ?? {};
  if (!isPlainObject(providerOptions)) throw configurationError('config/plugins: upload.config.providerOptions must be an object');
  const settings: Record<keyof typeof DEFAULT_SETTINGS, boolean> = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as Array<keyof typeof DEFAULT_SETTINGS>) {
    const value = raw[key] ?? DEFAULT_SETTINGS[key];
    if (typeof value !== 'boolean') {
      throw configurationError(`config/plugins: upload.config.${key} must be true or false`);
    }
    settings[key] = value;
  }
  return {
    provider: provider as UploadConfig['provider'], providerOptions, sizeLimit,
    breakpoints: breakpoints as Record<string, number>, ...settings,
  };
}
