/** What planning one root field needs, and what it reports besides the plan. */
import { type FieldNode, GraphQLError, type GraphQLObjectType, isObjectType } from 'graphql';
import type { Registry, RequestAuth } from '../../../core/index.ts';
import type { SchemaModel } from '../schema/model.ts';
import { type Collected, type OperationContext, subfields } from './collect.ts';
import type { ListLimits } from './args.ts';

export interface PlanLimits extends ListLimits {
  /** items one list field may answer, its aliases added up */
  amountLimit: number;
}

export interface PlanContext {
  op: OperationContext;
  model: SchemaModel;
  registry: Registry;
  auth: RequestAuth;
  limits: PlanLimits;
  /**
   * The answer goes through graphql's `execute` (custom resolvers, drafts, introspection): dynamic
   * zone items then always carry `__typename`, which its type resolver reads.
   */
  forExecute: boolean;
  /** fields left null because the caller may not read them (Strapi's FORBIDDEN, without a path) */
  forbidden: number;
  /** whether anything is read in its draft version (required attributes may then be missing) */
  readsDrafts: boolean;
  /** whether a selected field has a resolver of its own, which only `execute` runs */
  resolved: boolean;
}

/**
 * The fields selected on `typeName`, noting whether one of them has a resolver of its own (the
 * answer then goes through `execute`, which calls it with the object read for its parent).
 */
export function fieldsOf(pc: PlanContext, typeName: string, nodes: readonly FieldNode[]): Collected {
  const fields = subfields(pc.op, typeName, nodes);
  if (!pc.resolved && selectsResolved(pc, typeName, fields)) pc.resolved = true;
  return fields;
}

/** Whether one of `fields`, selected on `typeName`, has a resolver of its own (the schema model's `resolved`). */
export function selectsResolved(pc: PlanContext, typeName: string, fields: Collected): boolean {
  if (pc.model.resolved.size === 0) return false;
  for (const sub of fields.values()) if (pc.model.resolved.has(`${typeName}.${sub[0].name.value}`)) return true;
  return false;
}

/** The object type named `name` (the planner only meets object types it generated). */
export function objectTypeOf(pc: PlanContext, name: string): GraphQLObjectType {
  const type = pc.op.schema.getType(name);
  if (!isObjectType(type)) throw new GraphQLError(`Unknown object type ${name}`);
  return type;
}
