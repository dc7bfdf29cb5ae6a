/**
 * Loading an app's own modules (`config/*`, `src/index.*`), in TypeScript or JavaScript, as ES
 * modules or CommonJS, as Strapi projects have them.
 *
 * Vellum itself runs compiled when it is installed as a package, and Node 20 cannot load
 * TypeScript: tsx's loader (a runtime dependency) is registered then, once per process, before
 * the first TypeScript file is imported. Run from its own sources, Vellum is already under
 * whatever loads TypeScript (tsx for the CLI, vitest for its suite), so nothing is registered.
 */
import { pathToFileURL } from 'node:url';

const TYPESCRIPT = /\.[cm]?tsx?$/;
// this module's own extension: `.js` in the package's dist, `.ts` in the repository
const COMPILED = import.meta.url.endsWith('.js');

// Node's loader hooks belong to the process and cannot be taken back, so registering them is
// remembered at that scope too: a second app in the process must not stack a second loader.
let typescriptLoader: Promise<void> | undefined;

async function registerTypeScriptLoader(): Promise<void> {
  // both halves: `import` of ESM and of CommonJS TypeScript, and `require` inside the latter
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  esm.register();
  cjs.register();
}

/**
 * What a module exports as its value: `export default`, CommonJS `module.exports`, or the
 * module's named exports when it has no default. A CommonJS module compiled from ESM
 * (`exports.default = …` with `__esModule`, as tsc and tsx emit) is unwrapped to its default.
 */
export function exportedValue(mod: unknown): unknown {
  const ns = mod as { default?: unknown };
  const value = ns.default ?? mod;
  const compiled = value as { __esModule?: unknown; default?: unknown } | null;
  if (compiled && typeof compiled === 'object' && compiled.__esModule && compiled.default !== undefined) {
    return compiled.default;
  }
  return value;
}

/** Import one of the app's files (an absolute path) and return its exported value. */
export async function importUserModule(file: string): Promise<unknown> {
  if (COMPILED && TYPESCRIPT.test(file)) await (typescriptLoader ??= registerTypeScriptLoader());
  return exportedValue(await import(pathToFileURL(file).href));
}
