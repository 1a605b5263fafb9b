import { Modal, Typography } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { findEntry, SERVICE_GROUPS, serviceHours } from './content.ts';

/** The after-sales dialogs end with the way to act on them: apply from an order, follow a case. */
const AFTER_SALES_KEYS = new Set(
  SERVICE_GROUPS.find((g) => g.key === 'afterSales')?.entries.map((e) => e.key) ?? [],
);

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
  const { site, hotline } = useSite();
  const link = useSiteLink();
  const [entryKey, setEntryKey] = useState<string | null>(null);
  const open = useCallback((key: string) => setEntryKey(key), []);
  const api = useMemo(() => ({ open }), [open]);
  const entry = entryKey ? findEntry(entryKey) : undefined;
  const sections = entry?.sections({
    siteName: site?.siteName ?? '',
    hotline,
    hours: serviceHours(site?.configJson.serviceHours),
  });

  return (
    <ServiceInfoContext.Provider value={api}>
      {children}
      <Modal
        open={!!entry}
        title={entry?.title}
        onCancel={() => setEntryKey(null)}
        footer={
          entryKey && AFTER_SALES_KEYS.has(entryKey) ? (
            <div className="service-info__actions" data-testid="service-info-aftersale">
              <Link to={link('/myOrder')} onClick={() => setEntryKey(null)}>
                去我的订单申请售后
              </Link>
              {'　'}
              <Link to={link('/afterSaleList')} onClick={() => setEntryKey(null)}>
                查看我的售后
              </Link>
            </div>
          ) : null
        }
        width={640}
        destroyOnHidden
      >
        <div className="service-info">
          {sections?.map((section, index) => (
            // Sections are static text in a fixed order.
            // biome-ignore lint/suspicious/noArrayIndexKey: static, never reordered
            <section key={index}>
              {section.heading && <Typography.Title level={5}>{section.heading}</Typography.Title>}
              {section.paragraphs?.map((text) => (
                <Typography.Paragraph key={text}>
                  <KeepHotline text={text} hotline={hotline} />
                </Typography.Paragraph>
              ))}
              {section.steps && (
                <ol>
                  {section.steps.map((step) => (
                    <li key={step}>
                      <KeepHotline text={step} hotline={hotline} />
                    </li>
                  ))}
                </ol>
              )}
            </section>
          ))}
        </div>
      </Modal>
    </ServiceInfoContext.Provider>
  );
}
