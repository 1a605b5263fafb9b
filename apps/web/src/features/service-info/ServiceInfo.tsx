import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useState,
} from 'react';

const ServiceInfoDialog = lazy(() => import('./ServiceInfoDialog.tsx'));

interface ServiceInfoApi {
  open: (entryKey: string) => void;
}

const ServiceInfoContext = createContext<ServiceInfoApi>({ open: () => {} });

export const useServiceInfo = (): ServiceInfoApi => useContext(ServiceInfoContext);

/** Text with the hotline kept on one line: a number broken at its dashes cannot be dialled from the page. */
export function KeepHotline({ text, hotline }: { text: string; hotline: string }) {
  if (!hotline || !text.includes(hotline)) return text;
  const parts = text.split(hotline);
  return parts.flatMap((part, index) =>
    index === 0
      ? [part]
      : [
          <span key={`${index}-${hotline}`} className="nowrap" data-testid="info-hotline">
            {hotline}
          </span>,
          part,
        ],
  );
}

/** Holds the one service-information dialog the footer and the header's after-sales menu open. */
export function ServiceInfoProvider({ children }: { children: ReactNode }) {
  const [entryKey, setEntryKey] = useState<string | null>(null);
  // Mounted from the first open on, so that closing still animates.
  const [opened, setOpened] = useState(false);
  const open = useCallback((key: string) => {
    setOpened(true);
    setEntryKey(key);
  }, []);
  const api = useMemo(() => ({ open }), [open]);

  return (
    <ServiceInfoContext.Provider value={api}>
      {children}
      {opened && (
        <Suspense fallback={null}>
          <ServiceInfoDialog entryKey={entryKey} setEntryKey={setEntryKey} />
        </Suspense>
      )}
    </ServiceInfoContext.Provider>
  );
}
