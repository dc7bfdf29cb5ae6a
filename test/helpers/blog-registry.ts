import { fileURLToPath } from 'node:url';
import { loadAppSchemas } from '../../core/content-types/load.ts';
import { createRegistry, type Registry } from '../../core/content-types/registry.ts';
import { fileContentType } from '../../plugins/upload/file-schema.ts';

const BLOG = fileURLToPath(new URL('../../examples/blog', import.meta.url));

/**
 * The blog example's schemas in a frozen registry, for resolving query parameters without an
 * app; with the upload plugin's file type, as a running app has it, unless `upload` is false.
 */
export async function blogRegistry({ upload = true }: { upload?: boolean } = {}): Promise<Registry> {
  const { contentTypes, components } = await loadAppSchemas(BLOG);
  const registry = createRegistry();
  for (const c of components) registry.addComponent(c);
  for (const ct of upload ? [...contentTypes, fileContentType] : contentTypes) registry.addContentType(ct);
  registry.freeze();
  return registry;
}
