import { MenuOutlined, PhoneOutlined, SearchOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import {
  ADVERT_LINK,
  type AdminAdvert,
  type FootTemplate,
  type HeadTemplate,
  type TemplatePreviewSite,
} from '@sitemall/contract';
import DOMPurify from 'dompurify';
import type { CSSProperties } from 'react';

/**
 * The storefront's header, menu and footer as the templates being edited would show them: the
 * same fields the storefront reads (spec section 2, "Header" and "Footer"), drawn here without
 * the storefront's code. The footer note is operator HTML: sanitised as the storefront does.
 */

/** The storefront's rule: no scripts, handlers, styles or form controls. */
const sanitize = (html: string) =>
  DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
  });

/** What the storefront's menu shows of an advert: type 1 always, type 2 with an http(s) link. */
const shownInMenu = (ad: AdminAdvert) => ad.isEnabled && (ad.type === 1 || ADVERT_LINK.test(ad.url));

const box: CSSProperties = { maxWidth: 760, margin: '0 auto', padding: '0 16px' };
const row: CSSProperties = { ...box, display: 'flex', alignItems: 'center', gap: 12 };
/** One line, cut with an ellipsis when the preview is narrower than the storefront. */
const line: CSSProperties = {
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  minWidth: 0,
};

export function StorefrontPreview({
  site,
  head,
  foot,
  menu,
}: {
  site: TemplatePreviewSite;
  head: HeadTemplate;
  foot: FootTemplate;
  /** The site's menu adverts in order, enabled or not. */
  menu: AdminAdvert[];
}) {
  const primary = site.primaryColor || '#1f5fbf';
  return (
    <div
      data-testid="storefront-preview"
      style={{
        border: '1px solid #e5e5e5',
        borderRadius: 8,
        overflow: 'hidden',
        background: '#f5f5f5',
        fontSize: 12,
        color: '#333',
      }}
    >
      <div style={{ background: '#f0f0f0', color: '#666', borderBottom: '1px solid #e5e5e5' }}>
        <div style={{ ...row, justifyContent: 'space-between', height: 28 }}>
          <span style={{ ...line, flex: 1 }}>
            {!site.hideServicePhone && site.hotline && (
              <span data-testid="preview-phone" style={{ marginRight: 12 }}>
                <PhoneOutlined /> 客服电话：{site.hotline}
              </span>
            )}
            您好，欢迎来到{site.siteName}！<span style={{ color: primary }}>请登录</span>
          </span>
          <span style={{ display: 'flex', gap: 12, whiteSpace: 'nowrap' }}>
            <span>批量下单</span>
            <span>我的订单</span>
          </span>
        </div>
      </div>
      <div style={{ background: '#fff' }}>
        <div style={{ ...row, height: 64 }}>
          {site.logo && <img src={site.logo} alt="" style={{ height: 36 }} />}
          <span style={{ display: 'flex', flexDirection: 'column', maxWidth: 170, minWidth: 0 }}>
            <strong style={{ ...line, fontSize: 15 }}>{site.siteName}</strong>
            {site.slogan && <span style={{ ...line, color: '#999' }}>{site.slogan}</span>}
          </span>
          <span style={{ flex: 1, display: 'flex', marginLeft: 12 }}>
            <span
              data-testid="preview-search"
              style={{
                flex: 1,
                border: `2px solid ${primary}`,
                borderRight: 0,
                padding: '5px 8px',
                color: '#aaa',
                whiteSpace: 'nowrap',
                overflow: 'hidden',
                textOverflow: 'ellipsis',
              }}
            >
              {head.note || '搜索商品'}
            </span>
            <span style={{ background: primary, color: '#fff', padding: '7px 12px', whiteSpace: 'nowrap' }}>
              <SearchOutlined /> 搜索
            </span>
          </span>
          <span style={{ color: primary, whiteSpace: 'nowrap' }}>
            <ShoppingCartOutlined /> 我的购物车
          </span>
        </div>
      </div>
      <nav style={{ background: primary, color: '#fff' }}>
        <ul data-testid="preview-menu" style={{ ...row, listStyle: 'none', height: 34, margin: '0 auto' }}>
          <li style={{ background: 'rgba(0,0,0,.18)', padding: '0 12px', lineHeight: '34px' }}>
            <MenuOutlined /> 全部分类
          </li>
          <li style={{ whiteSpace: 'nowrap' }}>首页</li>
          {menu.filter(shownInMenu).map((ad) => (
            <li key={ad.id} title={ad.adName} style={{ whiteSpace: 'nowrap' }}>
              {ad.title}
            </li>
          ))}
        </ul>
      </nav>
      <div style={{ ...box, padding: 12 }}>
        {head.photo ? (
          <img
            data-testid="preview-banner"
            src={head.photo}
            alt={head.note || site.siteName}
            style={{ display: 'block', width: '100%', maxHeight: 120, objectFit: 'cover', borderRadius: 4 }}
          />
        ) : (
          <div
            style={{ height: 60, display: 'grid', placeItems: 'center', color: '#bbb', background: '#fff' }}
          >
            首页横幅（未设置图片）
          </div>
        )}
        <div style={{ color: '#bbb', textAlign: 'center', padding: '8px 0' }}>⋯ 页面内容 ⋯</div>
      </div>
      <footer data-testid="preview-footer" style={{ background: '#fff', borderTop: `2px solid ${primary}` }}>
        {foot.list.length > 0 && (
          <ul
            style={{
              ...row,
              listStyle: 'none',
              justifyContent: 'space-around',
              padding: '10px 16px',
              margin: '0 auto',
              borderBottom: '1px solid #f0f0f0',
            }}
          >
            {foot.list.map((item, index) => (
              // The list is edited in place: its rows have no other identity than their place.
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions of the form list
              <li key={index} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
                {item.src && <img src={item.src} alt="" style={{ width: 24, height: 24 }} />}
                <span>{item.name}</span>
              </li>
            ))}
          </ul>
        )}
        <div style={{ ...row, justifyContent: 'space-between', padding: '10px 16px' }}>
          {site.serviceInfo ? (
            <div data-testid="preview-hotline">
              <div>
                <PhoneOutlined /> 客服热线
              </div>
              <strong style={{ fontSize: 16, color: primary }}>{site.hotline}</strong>
              {site.serviceHours && <div style={{ color: '#999' }}>周一至周日 {site.serviceHours}</div>}
            </div>
          ) : (
            <div>
              <strong>{site.siteName}</strong>
              {site.slogan && <div style={{ color: '#999' }}>{site.slogan}</div>}
              <div style={{ color: '#666', marginTop: 4 }}>商家入驻 · 店铺街 · 我的订单</div>
            </div>
          )}
          {foot.photo && <img src={foot.photo} alt="二维码" style={{ width: 72, height: 72 }} />}
        </div>
        {foot.note && (
          <div
            data-testid="preview-note"
            style={{ ...box, padding: '8px 16px 12px', color: '#999', textAlign: 'center' }}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify as on the storefront
            dangerouslySetInnerHTML={{ __html: sanitize(foot.note) }}
          />
        )}
      </footer>
    </div>
  );
}
