import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { configurationError, type PlainObject } from '../../core/index.ts';

/**
 * What a provider stores: the file's entity fields plus its bytes. The provider sets `url`
 * (and may set `provider_metadata`). The same shape as Strapi's upload providers, so an
 * existing one (`@strapi/provider-upload-aws-s3`, …) plugs in unchanged.
 */
export interface ProviderFile {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  size: number;
  sizeInBytes?: number;
  width?: number | null;
  height?: number | null;
  path?: string | null;
  buffer?: Buffer;
  url?: string;
  provider_metadata?: PlainObject | null;
}

export interface UploadProvider {
  upload(file: ProviderFile): Promise<void>;
  delete(file: ProviderFile): Promise<void>;
}

interface ProviderModule {
  init(options: PlainObject): UploadProvider;
}

/** Where the built-in provider writes: `uploads/` in the public folder, served at `/uploads/...`. */
export const uploadsDir = (publicDir: string): string => path.join(publicDir, 'uploads');

/** The built-in provider: files under `<app>/public/uploads`, served at `/uploads/...`. */
export function localProvider(options: { publicDir: string }): UploadProvider {
  const dir = uploadsDir(options.publicDir);
  const fileOf = (file: ProviderFile): string => {
    // hash and ext are made by Vellum, but a provider never trusts a path it writes to
    const name = `${file.hash}${file.ext}`;
    if (name !== path.basename(name) || name.startsWith('.')) throw new Error(`unsafe upload name ${name}`);
    return path.join(dir, name);
  };
  return {
    async upload(file) {
      await mkdir(dir, { recursive: true });
      await writeFile(fileOf(file), file.buffer ?? Buffer.alloc(0));
      file.url = `/uploads/${file.hash}${file.ext}`;
    },
    async delete(file) {
      await unlink(fileOf(file)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    },
  };
}

/**
 * The configured provider: `local`, a module with `init`, or a package name — tried as
 * `@strapi/provider-upload-<name>` first (Strapi's naming), then as given.
 */
export async function loadProvider(
  provider: string | { init(options: PlainObject): unknown },
  options: PlainObject,
  publicDir: string,
): Promise<{ name: string; provider: UploadProvider }> {
  if (provider === 'local') return { name: 'local', provider: localProvider({ publicDir }) };
  if (typeof provider !== 'string') return { name: 'custom', provider: provider.init(options) as UploadProvider };
  for (const spec of [`@strapi/provider-upload-${provider}`, provider]) {
    let mod: { default?: ProviderModule } & Partial<ProviderModule>;
    try {
      mod = await import(spec);
    } catch {
      continue;
    }
    const init = mod.init ?? mod.default?.init;
    if (typeof init === 'function') return { name: provider, provider: init(options) };
  }
  throw configurationError(
    `config/plugins: upload provider "${provider}" was not found ` +
      `(tried @strapi/provider-upload-${provider} and ${provider})`,
  );
}
