/**
 * Config files checked against zod schemas. A bad value stops start-up with a ConfigurationError
 * naming the file it came from and its key path, e.g.
 * `/srv/app/config/plugins.ts: users-permissions.config.ratelimit.max: expected number, got "ten"`.
 * Unknown keys are let through (Strapi ignores them), so an app's Strapi config keeps working.
 */
import type { z } from 'zod';
import { configurationError, fieldLabel } from '../errors.ts';
import type { ConfigName } from './load.ts';

/** Any zod schema a config (or a plugin's `config`) is checked with. */
export type ConfigSchema = z.ZodType;
export type ConfigKey = ReadonlyArray<string | number>;

/** Says which file (or override) set a key of a config file: the last of those that define it. */
export interface ConfigSources {
  describe(name: ConfigName, key: ConfigKey): string;
}

/** Where the value being checked sits: in which config file, under which key. */
export interface ConfigPlace {
  /** `middlewares` is one file, not layered: its messages name `config/middlewares` */
  name: ConfigName | 'middlewares';
  /** the key path of the value inside the file (`['users-permissions', 'config']`); [] for the whole file */
  key?: ConfigKey;
  /** absent: the message names `config/<name>` only */
  sources?: ConfigSources;
}

/** Parse `value` with `schema`; on failure, one line per problem, each naming its file and key. */
export function parseConfig<S extends ConfigSchema>(schema: S, value: unknown, place: ConfigPlace): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const base = place.key ?? [];
  const lines = result.error.issues
    .flatMap((issue) => problems(issue))
    .map(({ key, text }) => {
      const full = [...base, ...key];
      const layered = place.name === 'middlewares' ? undefined : place.sources?.describe(place.name, full);
      const file = layered ?? `config/${place.name}`;
      return `${file}: ${fieldLabel(full.map(String)) || '(the whole file)'}: ${text}`;
    });
  throw configurationError([...new Set(lines)].join('\n'));
}

/**
 * A description of what a schema wants (`z.custom` checks and refinements) that reads as
 * `expected <description>, got <value>` in messages, and alternatives as `expected a or b`.
 */
export const expected = (description: string): string => `expected ${description}`;

interface Problem {
  key: ConfigKey;
  text: string;
}

function problems(issue: z.core.$ZodIssue): Problem[] {
  const key = issue.path as ConfigKey;
  const got = `, got ${show(issue.input)}`;
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // one alternative got further (the value had its shape): its problems are the useful ones
    const deepest = issue.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
    if (depth(deepest) > 0) {
      return deepest.flatMap((inner) => problems(inner)).map((p) => ({ key: [...key, ...p.key], text: p.text }));
    }
    // the alternatives all refused the value itself: "expected string or number, got true"
    const wants = issue.errors.map((branch) => (branch.length === 1 ? wanted(branch[0]) : null));
    if (!own(issue) && wants.every((w) => w !== null)) return [{ key, text: `${expected(wants.join(' or '))}${got}` }];
  }
  const want = wanted(issue);
  if (want) return [{ key, text: `${expected(want)}${got}` }];
  return [{ key, text: `${lowerFirst(issue.message)} (got ${show(issue.input)})` }];
}

const depth = (branch: z.core.$ZodIssue[]): number => Math.max(0, ...branch.map((i) => i.path.length));

/** A message a schema gave with `expected(…)`, rather than zod's own. */
const own = (issue: z.core.$ZodIssue): boolean => issue.message.startsWith('expected ');

/** What the value should have been, for the issues that say. */
function wanted(issue: z.core.$ZodIssue): string | null {
  if (own(issue)) return issue.message.slice('expected '.length);
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v));
      return values.length === 1 ? values[0] : `one of ${values.join(', ')}`;
    }
    case 'too_small':
    case 'too_big': {
      const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      if (issue.origin === 'number' || issue.origin === 'int') return `a number ${op} ${bound}`;
      if (issue.origin === 'array') return `a list of ${op} ${bound} items`;
      if (issue.origin === 'string') return `text of ${op} ${bound} characters`;
      return null;
    }
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue ? `text matching ${issue.pattern}` : null;
    case 'invalid_key': {
      const inner = issue.issues[0] ? wanted(issue.issues[0]) : null;
      return inner ? `${inner} as the key` : null;
    }
    default:
      return null;
  }
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/** A config value as a message shows it: JSON where it has one, cut short. */
function show(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (value === undefined || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'symbol') {
    return String(value);
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
