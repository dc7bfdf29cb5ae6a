/**
 * The script that starts GraphiQL in the page, served as an asset because the page's CSP runs
 * no inline script. It is plain browser JavaScript in a string (not compiled TypeScript) so the
 * same text is served from the sources and from dist/. It reads the endpoint from the root
 * element, and `?query=` / `?variables=` from the page's URL (GraphiQL itself does not).
 *
 * Queries are POSTed as JSON; the headers editor's JSON (an `Authorization: Bearer …`, say)
 * becomes the request's headers. GraphiQL keeps those headers out of localStorage by default
 * (`shouldPersistHeaders` false), so a token does not outlive the tab.
 */
export const BOOT_SCRIPT = `'use strict';
(() => {
  const root = document.getElementById('graphiql');
  const endpoint = root.dataset.endpoint;
  const params = new URLSearchParams(window.location.search);

  // a body that is not JSON (a proxy's error page, say) is still shown, as a GraphQL error
  const fetcher = async (graphQLParams, options) => {
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/graphql-response+json, application/json',
      ...(options && options.headers),
    };
    const response = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify(graphQLParams),
      credentials: 'same-origin',
    });
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return { errors: [{ message: 'HTTP ' + response.status + ': ' + text.slice(0, 500) }] };
    }
  };

  const props = { fetcher };
  if (params.has('query')) props.query = params.get('query');
  if (params.has('variables')) props.variables = params.get('variables');
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, props));
})();
`;
