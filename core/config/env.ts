import { configurationError } from '../errors.ts';

/**
 * Strapi's `env` helper, bound to an explicit environment object (never read
 * `process.env` implicitly, so two apps in one process can differ).
 */
export interface EnvFn {
  (name: string, defaultValue?: string): string | undefined;
  <T>(name: string, defaultValue: T): string | T;
  int(name: string, defaultValue?: number): number | undefined;
  float(name: string, defaultValue?: number): number | undefined;
  bool(name: string, defaultValue?: boolean): boolean | undefined;
  json<T = unknown>(name: string, defaultValue?: T): T | undefined;
  array(name: string, defaultValue?: string[]): string[] | undefined;
}

/** Build an `env()` helper over the given variables. */
export function createEnv(vars: Record<string, string | undefined>): EnvFn {
  const has = (name: string): boolean => vars[name] !== undefined && vars[name] !== '';
  const env = ((name: string, defaultValue?: unknown) => (has(name) ? vars[name] : defaultValue)) as EnvFn;
  env.int = (name, d) => (has(name) ? Number.parseInt(vars[name] as string, 10) : d);
  env.float = (name, d) => (has(name) ? Number.parseFloat(vars[name] as string) : d);
  env.bool = (name, d) => (has(name) ? ['true', '1', 'yes', 'on'].includes((vars[name] as string).toLowerCase()) : d);
  env.json = (name, d) => {
    if (!has(name)) return d;
    try {
      return JSON.parse(vars[name] as string);
    } catch (err) {
      const reason = (err as Error).message;
      throw configurationError(`Invalid JSON in environment variable ${name}: ${reason}`, { cause: err });
    }
  };
  env.array = (name, d) => {
    if (!has(name)) return d;
    let raw = (vars[name] as string).trim();
    // Strapi accepts both `a,b` and `[a,b]`
    if (raw.startsWith('[') && raw.endsWith(']')) raw = raw.slice(1, -1);
    return raw
      .split(',')
      .map((v) => v.trim().replace(/^"(.*)"$/, '$1'))
      .filter((v) => v !== '');
  };
  return env;
}
