import { Modal, Typography } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { findEntry, SERVICE_GROUPS, serviceHours } from './content.ts';
import { KeepHotline } from './ServiceInfo.tsx';

/** The after-sales dialogs end with the way to act on them: apply from an order, follow a case. */
const AFTER_SALES_KEYS = new Set(
  SERVICE_GROUPS.find((g) => g.key === 'afterSales')?.entries.map((e) => e.key) ?? [],
);

/**
 * The service-information dialog itself: loaded on the first open (antd's Modal and Typography
 * stay out of the first page load).
 */
export default function ServiceInfoDialog({
  entryKey,
  setEntryKey,
}: {
  entryKey: string | null;
  setEntryKey: (key: string | null) => void;
}) {
  const { site, hotline } = useSite();
  const link = useSiteLink();
  const entry = entryKey ? findEntry(entryKey) : undefined;
  const sections = entry?.sections({
    siteName: site?.siteName ?? '',
    hotline,
    hours: serviceHours(site?.configJson.serviceHours),
  });
  return (
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
            {/* An h2 drawn small: the dialog's text comes after the page's own h1 and h2s. */}
            {section.heading && <h2 className="service-info__heading">{section.heading}</h2>}
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
  );
}
