import { expected, z, type PlainObject } from '../../core/index.ts';

/** Strapi 5's defaults for its upload settings. */
export const DEFAULT_SETTINGS = { sizeOptimization: true, responsiveDimensions: true, autoOrientation: false } as const;

export const DEFAULT_SIZE_LIMIT = 200 * 1024 * 1024;
export const DEFAULT_BREAKPOINTS = { large: 1000, medium: 750, small: 500 };

/** A provider module given as an object (rather than a package name): Strapi's `{ init(options) }`. */
export interface ProviderModule {
  init(options: PlainObject): unknown;
}

const providerModule = z.custom<ProviderModule>(
  (v) => typeof v === 'object' && v !== null && typeof (v as { init?: unknown }).init === 'function',
  { message: expected('a module with init()') },
);

/** `config/plugins` → `upload.config`, with Strapi's defaults. */
export const uploadConfigSchema = z.object({
  /** 'local', a provider package name, or a module object with `init` */
  provider: z.union([z.string().min(1), providerModule]).default('local'),
  providerOptions: z.record(z.string(), z.unknown()).default({}),
  /** bytes; larger uploads get 413 */
  sizeLimit: z.number().positive().default(DEFAULT_SIZE_LIMIT),
  /** responsive formats: name → largest dimension in px (made only when the original is larger) */
  breakpoints: z.record(z.string(), z.number().positive()).default(DEFAULT_BREAKPOINTS),
  /** Strapi's upload settings (its Media Library settings page): re-encode originals at quality 80 */
  sizeOptimization: z.boolean().default(DEFAULT_SETTINGS.sizeOptimization),
  /** …rotate them by their EXIF orientation */
  autoOrientation: z.boolean().default(DEFAULT_SETTINGS.autoOrientation),
  /** …and make the breakpoints' formats (the thumbnail is made either way) */
  responsiveDimensions: z.boolean().default(DEFAULT_SETTINGS.responsiveDimensions),
});

export type UploadConfig = z.output<typeof uploadConfigSchema>;
