/** A printed, sorted schema as its type definitions by name (each its printed text), for SDL comparisons. */
export function definitions(sdl: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of sdl.trim().split(/\n\n(?=\S)/)) {
    const name = /^(?:"""[\s\S]*?"""\n)?(?:type|input|enum|union|scalar|interface) (\w+)/.exec(block)?.[1];
    if (!name) throw new Error(`unexpected block: ${block}`);
    out.set(name, block);
  }
  return out;
}
