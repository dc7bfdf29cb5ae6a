/**
 * What an app serves, by name, for people: the start banner lists these addresses. The kernel
 * adds its health check; a plugin adds its own in `register` (REST its prefix, upload its media
 * library, GraphQL its playground), so the banner never needs to know which plugins exist.
 */
export interface Endpoint {
  /** what a person looks for: "REST API", "GraphQL playground" */
  name: string;
  /** under the server's address, starting with '/' */
  path: string;
  /** an API a frontend is pointed at: listed first */
  api?: boolean;
}

export interface Endpoints {
  add(endpoint: Endpoint): void;
  /** the APIs first, then the rest, each in the order added */
  list(): Endpoint[];
}

export function createEndpoints(): Endpoints {
  const added: Endpoint[] = [];
  return {
    add: (endpoint) => void added.push({ ...endpoint }),
    list: () => [...added.filter((e) => e.api), ...added.filter((e) => !e.api)],
  };
}
