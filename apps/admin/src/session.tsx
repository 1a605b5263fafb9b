import { adminApi, grants, type Me } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';
import { call, getToken } from './api';

/** Who is logged in, and the site the operator works on (undefined: all of their sites). */
interface Session {
  me: Me;
  siteId: number | undefined;
  setSiteId: (siteId: number | undefined) => void;
  /** Whether the operator holds the permission on the site (or on some site when none is given). */
  can: (permission: string, siteId?: number) => boolean;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

export const useMe = () =>
  useQuery({
    queryKey: ['me', getToken()],
    queryFn: () => call(adminApi.me, {}),
    enabled: !!getToken(),
    retry: false,
  });

export function SessionProvider({ me, children }: { me: Me; children: ReactNode }) {
  const [siteId, setSiteId] = useState<number | undefined>(
    me.sites.length === 1 ? me.sites[0]?.id : undefined,
  );
  const value = useMemo<Session>(
    () => ({
      me,
      siteId,
      setSiteId,
      can: (permission, site) =>
        me.assignments.some(
          (a) =>
            a.permissions.some((held) => grants(held, permission)) &&
            (site === undefined || a.siteIds === null || a.siteIds.includes(site)),
        ),
    }),
    [me, siteId],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The operator's sites on which they hold `permission`, as select options, and the one to start with. */
export function useSitesWith(permission: string) {
  const { me, can, siteId } = useSession();
  const options = me.sites
    .filter((s) => can(permission, s.id))
    .map((s) => ({ value: s.id, label: `${s.id} ${s.siteName}` }));
  return { options, initial: siteId && can(permission, siteId) ? siteId : options[0]?.value };
}
