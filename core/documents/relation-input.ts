import type { FieldIssue } from '../errors.ts';
import { isPlainObject } from '../config/merge.ts';

export type Position = { before: string } | { after: string } | { start: true } | { end: true };

export interface RelationRef {
  documentId: string;
  position?: Position;
}

/** A relation value from a request body, in one of Strapi 5's forms, normalised. */
export type RelationInput =
  | { kind: 'set'; refs: RelationRef[] }
  | { kind: 'patch'; connect: RelationRef[]; disconnect: RelationRef[] };

/** What a documentId may look like (generated ones have cuid2's shape, document-id.ts; imported ones may differ). */
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

const fail = (path: string[], message: string, value: unknown): { issue: FieldIssue } => ({
  issue: { path, message: `${path.join('.')} ${message}`, name: 'ValidationError', value },
});

function parseRef(item: unknown, allowPosition: boolean): RelationRef | string {
  const raw = isPlainObject(item) ? item.documentId : item;
  if (typeof raw !== 'string' || !DOCUMENT_ID.test(raw)) return 'must reference documents by their documentId';
  if (!isPlainObject(item) || item.position === undefined) return { documentId: raw };
  if (!allowPosition) return 'position is only allowed in connect';
  const p = item.position;
  if (!isPlainObject(p)) return 'has an invalid position';
  if (typeof p.before === 'string') return { documentId: raw, position: { before: p.before } };
  if (typeof p.after === 'string') return { documentId: raw, position: { after: p.after } };
  if (p.start === true || p.start === 'true') return { documentId: raw, position: { start: true } };
  if (p.end === true || p.end === 'true') return { documentId: raw, position: { end: true } };
  return 'has an invalid position';
}

function parseList(value: unknown, path: string[], allowPosition: boolean): RelationRef[] | { issue: FieldIssue } {
  // a single documentId or object is accepted where a list is expected, as Strapi does
  const items = Array.isArray(value) ? value : [value];
  const refs: RelationRef[] = [];
  for (const item of items) {
    const ref = parseRef(item, allowPosition);
    if (typeof ref === 'string') return fail(path, ref, item);
    refs.push(ref);
  }
  return refs;
}

/**
 * Parse a relation value: `null`, a documentId, an array of them (= set), or
 * `{connect, disconnect, set}` where `set` cannot be combined with the other two.
 */
export function parseRelationInput(value: unknown, path: string[]): { input: RelationInput } | { issue: FieldIssue } {
  if (value === null) return { input: { kind: 'set', refs: [] } };
  if (typeof value === 'string' || Array.isArray(value) || (isPlainObject(value) && 'documentId' in value)) {
    const refs = parseList(value, path, false);
    return 'issue' in refs ? refs : { input: { kind: 'set', refs } };
  }
  if (!isPlainObject(value))
    return fail(path, 'must be a documentId, an array of documentIds or {connect, disconnect, set}', value);
  for (const key of Object.keys(value)) {
    if (key !== 'connect' && key !== 'disconnect' && key !== 'set')
      return fail(path, `has an unknown key ${key}`, value);
  }
  if (value.set !== undefined) {
    if (value.connect !== undefined || value.disconnect !== undefined) {
      return fail(path, 'cannot combine set with connect or disconnect', value);
    }
    const refs = value.set === null ? [] : parseList(value.set, path, false);
    return 'issue' in refs ? refs : { input: { kind: 'set', refs } };
  }
  const connect = value.connect === undefined || value.connect === null ? [] : parseList(value.connect, path, true);
  if ('issue' in connect) return connect;
  const disconnect =
    value.disconnect === undefined || value.disconnect === null ? [] : parseList(value.disconnect, path, false);
  if ('issue' in disconnect) return disconnect;
  const seen = new Set<string>();
  for (const ref of connect) {
    if (seen.has(ref.documentId)) return fail(path, `connects ${ref.documentId} more than once`, value);
    seen.add(ref.documentId);
  }
  return { input: { kind: 'patch', connect, disconnect } };
}

/** Every documentId the input names (targets that must exist, positions' anchors excluded). */
export function referencedIds(input: RelationInput): string[] {
  return input.kind === 'set' ? input.refs.map((r) => r.documentId) : input.connect.map((r) => r.documentId);
}

const anchorOf = (pos: Position | undefined): string | undefined =>
  pos && 'before' in pos ? pos.before : pos && 'after' in pos ? pos.after : undefined;

/**
 * Order connect items so that an item placed relative to another one connected later in the
 * same request comes after it, as Strapi does (its `sortConnectArray`); otherwise such a
 * request would be refused for an anchor that it connects itself. Items whose anchors are
 * already in the list keep their order. Returns an error message for anchors in a cycle.
 */
function orderConnect(connect: RelationRef[], list: string[]): RelationRef[] | string {
  const pending = new Map(connect.map((r) => [r.documentId, r]));
  const present = new Set(list);
  const ordered: RelationRef[] = [];
  const visiting = new Set<string>();
  const visit = (ref: RelationRef): string | undefined => {
    if (!pending.has(ref.documentId)) return undefined; // placed already
    const anchor = anchorOf(ref.position);
    if (anchor !== undefined && !present.has(anchor) && pending.has(anchor)) {
      if (visiting.has(anchor))
        return `cannot place ${ref.documentId} relative to ${anchor}, which is placed relative to it`;
      visiting.add(ref.documentId);
      const error = visit(pending.get(anchor)!);
      if (error) return error;
    }
    pending.delete(ref.documentId);
    ordered.push(ref);
    return undefined;
  };
  for (const ref of connect) {
    const error = visit(ref);
    if (error) return error;
  }
  return ordered;
}

/**
 * Apply an input to the current ordered list of documentIds. Connect items are applied one
 * after another (anchors connected in the same request first), each at its position
 * (default: the end); an item already present moves to its new place.
 * Returns an error message when a position names a document that is not in the list.
 */
export function applyRelationInput(current: string[], input: RelationInput): string[] | string {
  if (input.kind === 'set') return [...new Set(input.refs.map((r) => r.documentId))];
  const drop = new Set(input.disconnect.map((r) => r.documentId));
  const list = current.filter((id) => !drop.has(id));
  const connect = orderConnect(input.connect, list);
  if (typeof connect === 'string') return connect;
  for (const ref of connect) {
    const at = list.indexOf(ref.documentId);
    // connecting an item again moves it, by default to the end, as Strapi does
    if (at >= 0) list.splice(at, 1);
    const pos = ref.position ?? { end: true };
    if ('start' in pos) list.unshift(ref.documentId);
    else if ('end' in pos) list.push(ref.documentId);
    else {
      const anchor = 'before' in pos ? pos.before : pos.after;
      const i = list.indexOf(anchor);
      if (i < 0) return `cannot place ${ref.documentId} relative to ${anchor}, which is not connected`;
      list.splice('before' in pos ? i : i + 1, 0, ref.documentId);
    }
  }
  return list;
}

/**
 * The target of a to-one relation after `input`. Only the last item given counts (facts §7):
 * it replaces the current target even when that one is listed too, and positions mean
 * nothing on a single value.
 */
export function applyToOneInput(current: string | null, input: RelationInput): string | null {
  const given = input.kind === 'set' ? input.refs : input.connect;
  if (given.length > 0) return given[given.length - 1].documentId;
  if (input.kind === 'set') return null;
  return current !== null && input.disconnect.some((r) => r.documentId === current) ? null : current;
}
