import type { Asset } from './assets.ts';

/**
 * The page's CSP: scripts and styles only from this server (the assets it serves), queries only to
 * it. GraphiQL's CSS embeds its fonts and icons as data: URLs, and React and CodeMirror set inline
 * `style` attributes, hence those two allowances; nothing else may load, frame or be framed.
 */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The HTML that loads the assets (in order) and gives the boot script the endpoint to query. */
export function playgroundHtml(
  endpoint: string,
  title: string,
  assets: Asset[],
  assetUrl: (a: Asset) => string,
): string {
  const tags = assets.map((a) =>
    a.type.startsWith('text/css')
      ? `<link rel="stylesheet" href="${escapeHtml(assetUrl(a))}">`
      : `<script src="${escapeHtml(assetUrl(a))}" defer></script>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
${tags.join('\n')}
</head>
<body>
<div id="graphiql" data-endpoint="${escapeHtml(endpoint)}">Loading the GraphQL playground…</div>
</body>
</html>
`;
}
