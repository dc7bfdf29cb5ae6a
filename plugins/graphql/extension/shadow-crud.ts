/**
 * What the shadow CRUD generates for each content-type, as an app's `register` sets it through
 * `extension.shadowCRUD(uid)` (Strapi's shadow-crud manager): the type on or off, its queries,
 * its mutations, single actions, and per attribute its output field, input field and filters.
 * Setters return the handle, so calls chain as in Strapi. The schema build reads it at bootstrap.
 */

/** The shadow CRUD's actions: the queries `find`/`findOne`, the mutations `create`/`update`/`delete`. */
export type ShadowAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** Every action at once (Strapi's `'*'`): `disableAction('*')`. */
const ALL_ACTIONS = '*';

interface TypeState {
  enabled: boolean;
  queries: boolean;
  mutations: boolean;
  disabledActions: string[];
  fields: Map<string, FieldState>;
}

interface FieldState {
  enabled: boolean;
  input: boolean;
  output: boolean;
  filters: boolean;
}

export interface ShadowCrudField {
  isEnabled(): boolean;
  isDisabled(): boolean;
  hasInputEnabled(): boolean;
  hasOutputEnabled(): boolean;
  hasFiltersEnabled(): boolean;
  /** Strapi's own spelling of `hasFiltersEnabled`, so ported code runs */
  hasFiltersEnabeld(): boolean;
  /** output, input and filters off */
  disable(): ShadowCrudField;
  disableOutput(): ShadowCrudField;
  disableInput(): ShadowCrudField;
  disableFilters(): ShadowCrudField;
}

export interface ShadowCrudType {
  isEnabled(): boolean;
  isDisabled(): boolean;
  areQueriesEnabled(): boolean;
  areQueriesDisabled(): boolean;
  areMutationsEnabled(): boolean;
  areMutationsDisabled(): boolean;
  isActionEnabled(action: string): boolean;
  isActionDisabled(action: string): boolean;
  disable(): ShadowCrudType;
  disableQueries(): ShadowCrudType;
  disableMutations(): ShadowCrudType;
  disableAction(action: string): ShadowCrudType;
  disableActions(actions?: string[]): ShadowCrudType;
  field(name: string): ShadowCrudField;
}

export type ShadowCrud = (uid: string) => ShadowCrudType;

const defaultField = (): FieldState => ({ enabled: true, input: true, output: true, filters: true });

function fieldHandle(fields: Map<string, FieldState>, name: string): ShadowCrudField {
  const state = (): FieldState => {
    let s = fields.get(name);
    if (!s) fields.set(name, (s = defaultField()));
    return s;
  };
  const handle: ShadowCrudField = {
    isEnabled: () => state().enabled,
    isDisabled: () => !state().enabled,
    hasInputEnabled: () => state().input,
    hasOutputEnabled: () => state().output,
    hasFiltersEnabled: () => state().filters,
    hasFiltersEnabeld: () => state().filters,
    disable() {
      fields.set(name, { enabled: false, input: false, output: false, filters: false });
      return handle;
    },
    disableOutput() {
      state().output = false;
      return handle;
    },
    disableInput() {
      state().input = false;
      return handle;
    },
    disableFilters() {
      state().filters = false;
      return handle;
    },
  };
  return handle;
}

/** A shadow CRUD manager: one state per uid, every type and field enabled until told otherwise. */
export function createShadowCrud(): ShadowCrud {
  const types = new Map<string, TypeState>();
  return (uid) => {
    const state = (): TypeState => {
      let s = types.get(uid);
      if (!s) {
        s = { enabled: true, queries: true, mutations: true, disabledActions: [], fields: new Map() };
        types.set(uid, s);
      }
      return s;
    };
    const handle: ShadowCrudType = {
      isEnabled: () => state().enabled,
      isDisabled: () => !state().enabled,
      areQueriesEnabled: () => state().queries,
      areQueriesDisabled: () => !state().queries,
      areMutationsEnabled: () => state().mutations,
      areMutationsDisabled: () => !state().mutations,
      isActionEnabled: (action) => state().disabledActions.every((a) => a !== action && a !== ALL_ACTIONS),
      isActionDisabled: (action) => !handle.isActionEnabled(action),
      disable() {
        state().enabled = false;
        return handle;
      },
      disableQueries() {
        state().queries = false;
        return handle;
      },
      disableMutations() {
        state().mutations = false;
        return handle;
      },
      disableAction(action) {
        const s = state();
        if (!s.disabledActions.includes(action)) s.disabledActions.push(action);
        return handle;
      },
      disableActions(actions = []) {
        for (const action of actions) handle.disableAction(action);
        return handle;
      },
      field: (name) => fieldHandle(state().fields, name),
    };
    return handle;
  };
}
