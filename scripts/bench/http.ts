/** The small HTTP client the bench seeds and discovers with (fetch, JSON, optional bearer token). */
export interface Api {
  base: string;
  /** headers every request carries (the token, when given); autocannon sends them too */
  headers: Record<string, string>;
  /** a request that must succeed; its JSON answer */
  json<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** multipart POST (uploads) that must succeed */
  form<T = unknown>(path: string, form: FormData): Promise<T>;
}

export function createApi(base: string, token?: string): Api {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  async function send<T>(method: string, path: string, init: RequestInit): Promise<T> {
    const res = await fetch(base + path, {
      method,
      ...init,
      headers: { accept: 'application/json', ...headers, ...(init.headers as Record<string, string>) },
    }).catch((err: Error) => {
      // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, a reset…)
      throw new Error(`${method} ${base}${path} failed: ${(err.cause as Error | undefined)?.message ?? err.message}`, {
        cause: err,
      });
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 1000)}`);
    return (text === '' ? null : JSON.parse(text)) as T;
  }
  return {
    base,
    headers,
    json: (method, path, body) =>
      send(
        method,
        path,
        body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
      ),
    form: (path, form) => send('POST', path, { body: form }),
  };
}
