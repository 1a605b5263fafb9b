/**
 * Work that must run after any successful login, before the visitor is sent on (e.g. the guest
 * cart merge, spec section 6). Features do not import each other: the app composition (Root)
 * registers a hook here and the identity feature runs them.
 */
export type LoginHook = (input: { siteId: string | null }) => Promise<void> | void;

const hooks = new Set<LoginHook>();

export function onLoggedIn(hook: LoginHook): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/** Runs every hook; a failing hook never blocks the login. */
export async function runLoginHooks(input: { siteId: string | null }): Promise<void> {
  await Promise.all([...hooks].map(async (hook) => hook(input)).map((p) => p.catch(() => undefined)));
}
