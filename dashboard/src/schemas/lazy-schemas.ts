/**
 * Loads the dashboard's schemas (./schemas.ts, with zod) on first need and remembers them. Callers
 * that have nothing to check (a signed-out session reply, an empty storage key) never call it, so a
 * first visit to the landing page ships no zod; `preloadSchemasForStoredRecords` loads them before
 * the first render when this browser keeps records that will be read synchronously.
 */
export type TSchemas = typeof import('./schemas.ts')['schemas'];

let loaded: TSchemas | null = null;
let loading: Promise<TSchemas> | null = null;

export function loadSchemas(): Promise<TSchemas> {
  loading ??= import('./schemas.ts').then((module) => {
    loaded = module.schemas;
    return module.schemas;
  });
  return loading;
}

/** The schemas when they are loaded already, else null (a synchronous reader then starts loading them). */
export function loadedSchemas(): TSchemas | null {
  if (!loaded) void loadSchemas();
  return loaded;
}

/**
 * Loads the schemas when any of `keys` is in localStorage, so the synchronous readers of those
 * records (the bell's list, the collected email, an interrupted upload) find them loaded.
 */
export async function preloadSchemasForStoredRecords(keys: readonly string[]): Promise<void> {
  let isAnyStored = false;
  try {
    isAnyStored = keys.some((key) => localStorage.getItem(key) !== null);
  } catch {
    return; // storage disabled: nothing stored to read
  }
  if (isAnyStored) await loadSchemas();
}
