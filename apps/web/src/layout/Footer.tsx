import { PhoneOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { LazySafeHtml } from '../features/catalog/components/LazySafeHtml.tsx';
import { SERVICE_GROUPS, serviceHours } from '../features/service-info/content.ts';
import { useServiceInfo } from '../features/service-info/ServiceInfo.tsx';
import { useSiteLink } from '../site/links.ts';
import { useSite } from '../site/SiteProvider.tsx';

/** Feature list, service information, QR image and note (spec section 2, "Footer"). */
export function Footer() {
  const { site, templates, hotline, advancedConfig } = useSite();
  const serviceInfo = useServiceInfo();
  const link = useSiteLink();
  const foot = templates.foot;
  // The note is operator-written HTML: sanitised (SafeHtml) before it reaches the page.
  const note = foot?.note ?? '';
  const showServiceInfo = site?.configJson.serviceInfo === 'Y';
  const hours = serviceHours(site?.configJson.serviceHours);

  return (
    <footer className="footer">
      {foot && foot.list.length > 0 && (
        <div className="footer__features">
          <ul className="container footer__feature-list">
            {foot.list.map((item) => (
              <li key={`${item.name}-${item.src}`}>
                {item.src && <img src={item.src} alt="" />}
                <span>{item.name}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="container footer__main">
        {showServiceInfo && (
          <div className="footer__groups" data-testid="service-info">
            {SERVICE_GROUPS.map((group) => (
              <dl key={group.key}>
                <dt>{group.title}</dt>
                {group.entries.map((entry) => (
                  <dd key={entry.key}>
                    <button
                      type="button"
                      className="footer__entry"
                      onClick={() => serviceInfo.open(entry.key)}
                    >
                      {entry.title}
                    </button>
                  </dd>
                ))}
              </dl>
            ))}
          </div>
        )}
        <div className={`footer__side ${showServiceInfo ? '' : 'footer__side--wide'}`}>
          {showServiceInfo && (
            <div className="footer__hotline" data-testid="footer-hotline">
              <div className="footer__hotline-title">
                <PhoneOutlined /> 客服热线
              </div>
              <div className="footer__hotline-number">{hotline}</div>
              {hours && <div className="footer__hotline-hours">{hours}</div>}
            </div>
          )}
          {!showServiceInfo && (
            <div className="footer__about">
              <div className="footer__about-name">{site?.siteName}</div>
              {advancedConfig?.slogan && <div className="footer__about-slogan">{advancedConfig.slogan}</div>}
              <div className="footer__about-links">
                <Link to={link('/businessSettlement')}>商家入驻</Link>
                <Link to={link('/shopStreet')}>店铺街</Link>
                <Link to={link('/myOrder')}>我的订单</Link>
              </div>
            </div>
          )}
          {foot?.photo && (
            <figure className="footer__qr">
              <img src={foot.photo} alt="二维码" />
            </figure>
          )}
        </div>
      </div>
      <div className="footer__bottom">
        <div className="container">
          {showServiceInfo && (
            <div className="footer__about-links footer__about-links--center">
              <Link to={link('/businessSettlement')}>商家入驻</Link>
              <Link to={link('/shopStreet')}>店铺街</Link>
            </div>
          )}
          {note && <LazySafeHtml className="footer__note" html={note} />}
        </div>
      </div>
    </footer>
  );
}
