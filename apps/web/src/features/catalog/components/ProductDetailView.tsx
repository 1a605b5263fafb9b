import { SafetyCertificateOutlined, ShopOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import type { ProductDetail, ProductSpecification } from '@sitemall/contract';
import { App, Button, Skeleton, Tag } from 'antd';
import { type ReactNode, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { Breadcrumb } from '../../../ui/Breadcrumb.tsx';
import { Result } from '../../../ui/LazyResult.tsx';
import { QuantityStepper, quantityLimitMsg } from '../../../ui/QuantityStepper.tsx';
import { SectionTabs } from '../../../ui/SectionTabs.tsx';
import { useMemberPrice, useProductDetail, useProductStock } from '../api.ts';
import { clampQuantity, maxQuantity, quantityHint } from '../lib/quantity.ts';
import { SafeHtml } from './SafeHtml.tsx';
import { LoadError } from './states.tsx';

/** What the page composing this view does with a chosen specification and quantity (the cart feature). */
export interface PurchaseActions {
  onAddToCart: (choice: PurchaseChoice) => void;
  onBuyNow: (choice: PurchaseChoice) => void;
}

export interface PurchaseChoice {
  product: ProductDetail;
  specification: ProductSpecification;
  num: number;
}

function Gallery({ images, name }: { images: string[]; name: string }) {
  const [active, setActive] = useState(0);
  const shown = images[active] ?? images[0];
  return (
    <div className="gallery">
      <div className="gallery__main">
        {shown ? <img src={shown} alt={name} /> : <div className="gallery__none">暂无图片</div>}
      </div>
      {images.length > 1 && (
        <ul className="gallery__thumbs">
          {images.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                className={i === active ? 'is-active' : undefined}
                onMouseEnter={() => setActive(i)}
                onClick={() => setActive(i)}
                aria-label={`第 ${i + 1} 张图片`}
              >
                <img src={src} alt="" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The specification with live stock applied (the stock call is fresher than the detail). */
function withLiveStock(
  specs: readonly ProductSpecification[],
  live: { id: number; stock: number; hasStock: boolean }[] | undefined,
): ProductSpecification[] {
  if (!live) return [...specs];
  return specs.map((spec) => {
    const now = live.find((s) => s.id === spec.id);
    return now ? { ...spec, stock: now.stock, hasStock: now.hasStock } : spec;
  });
}

function Purchase({ product, actions }: { product: ProductDetail; actions?: PurchaseActions }) {
  const { siteId, formatMoney } = useSite();
  const memberPriceOf = useMemberPrice();
  const { message } = App.useApp();
  const stock = useProductStock(siteId ?? '', product.id);
  const specs = useMemo(
    () => withLiveStock(product.productSpecifications, stock.data?.productSpecifications),
    [product.productSpecifications, stock.data],
  );
  const isOnSale = stock.data?.isOnSale ?? product.isOnSale;
  const [specId, setSpecId] = useState<number | null>(null);
  const chosen = specs.find((s) => s.id === specId) ?? specs.find((s) => s.hasStock) ?? specs[0] ?? null;
  const max = chosen && isOnSale ? maxQuantity(chosen.stock, product.limitNum) : 0;
  const [num, setNum] = useState(1);
  // A new specification or fresher stock may lower the most one can take.
  useEffect(() => setNum((n) => clampQuantity(n, max)), [max]);
  const price = chosen?.price ?? product.price;
  const memberPrice = memberPriceOf(price);
  const canBuy = max >= 1;

  return (
    <div className="purchase">
      <h1 className="purchase__name">{product.name}</h1>
      {product.subtitle && <p className="purchase__subtitle">{product.subtitle}</p>}
      <div className="purchase__price-box">
        <div className="purchase__row">
          <span className="purchase__label">兑 换 价</span>
          <strong className="purchase__price" data-testid="detail-price">
            {formatMoney(price)}
          </strong>
          {product.marketPrice > price && (
            <s className="purchase__market">{formatMoney(product.marketPrice)}</s>
          )}
        </div>
        {memberPrice !== null && memberPrice < price && (
          <div className="purchase__row">
            <span className="purchase__label">会 员 价</span>
            <strong className="purchase__member" data-testid="detail-member-price">
              {formatMoney(memberPrice)}
            </strong>
          </div>
        )}
        <div className="purchase__row purchase__row--small">
          <span className="purchase__label">累计兑换</span>
          <span>{product.sales} 件</span>
        </div>
      </div>
      <div className="purchase__row">
        <span className="purchase__label">商品来源</span>
        <Tag color="volcano" bordered={false} data-testid="detail-source">
          {product.source.name}
        </Tag>
        {!product.source.hasAddressTab && <span className="purchase__muted">虚拟商品，无需收货地址</span>}
      </div>
      <div className="purchase__row">
        <span className="purchase__label">店　　铺</span>
        <span>
          <ShopOutlined /> {product.shop.shopName}
        </span>
      </div>
      <div className="purchase__row purchase__row--top">
        <span className="purchase__label">选择规格</span>
        <fieldset className="spec-picker" aria-label="选择规格">
          {specs.map((spec) => (
            <button
              key={spec.id}
              type="button"
              aria-pressed={chosen?.id === spec.id}
              className={`spec-picker__item ${chosen?.id === spec.id ? 'is-active' : ''} ${spec.hasStock ? '' : 'is-empty'}`}
              title={spec.hasStock ? `${formatMoney(spec.price)}，库存 ${spec.stock}` : '暂时无货'}
              onClick={() => setSpecId(spec.id)}
            >
              {spec.specificationValue}
              {!spec.hasStock && <small>无货</small>}
            </button>
          ))}
        </fieldset>
      </div>
      <div className="purchase__row">
        <span className="purchase__label">数　　量</span>
        <QuantityStepper
          value={num}
          max={max}
          disabled={!canBuy}
          onChange={(value) => setNum(clampQuantity(value, max))}
          onOverMax={() =>
            chosen &&
            void message.warning({
              key: 'quantity-limit',
              content: quantityLimitMsg(chosen.stock, product.limitNum),
            })
          }
          label="购买数量"
          testId="detail-num"
        />
        <span className="purchase__muted" data-testid="detail-stock">
          {!isOnSale ? '商品已下架' : chosen ? quantityHint(chosen.stock, product.limitNum) : ''}
        </span>
      </div>
      <div className="purchase__actions">
        <Button
          size="large"
          type="primary"
          ghost
          icon={<ShoppingCartOutlined />}
          disabled={!canBuy || !actions || !chosen}
          onClick={() => chosen && actions?.onAddToCart({ product, specification: chosen, num })}
          data-testid="add-to-cart"
        >
          加入购物车
        </Button>
        <Button
          size="large"
          type="primary"
          disabled={!canBuy || !actions || !chosen}
          onClick={() => chosen && actions?.onBuyNow({ product, specification: chosen, num })}
          data-testid="buy-now"
        >
          立即购买
        </Button>
      </div>
      <p className="purchase__promise">
        <SafetyCertificateOutlined /> 正品保障 · 7天无理由退货 · 15天换货（以商品页说明为准）
      </p>
    </div>
  );
}

/**
 * /productDetails: gallery, specification picker with live price and stock, quantity, detail text.
 * `below` (猜你喜欢) appears once the product has loaded: drawn earlier, it would be pushed down
 * the page when the product arrives (a layout shift of 0.11, Lighthouse).
 */
export function ProductDetailView({
  productId,
  actions,
  below,
}: {
  productId: number | undefined;
  actions?: PurchaseActions;
  below?: ReactNode;
}) {
  const { siteId } = useSite();
  const link = useSiteLink();
  const detail = useProductDetail(siteId ?? '', productId);
  // The page's one large render is drawn as a transition when the product comes: in slices
  // between which the browser answers input, not in one long task.
  const product = useDeferredValue(detail.data);
  if (!productId)
    return <Result className="catalog-state" status="404" title="商品不存在" subTitle="链接中缺少商品编号" />;
  if (detail.isError) {
    if (detail.error instanceof ApiError)
      return (
        <Result
          className="catalog-state"
          status="404"
          title="商品不存在或已下架"
          subTitle={detail.error.message}
          extra={
            <Link to={link('/home')}>
              <Button type="primary">返回首页</Button>
            </Link>
          }
        />
      );
    return <LoadError error={detail.error} onRetry={() => void detail.refetch()} />;
  }
  // Until the deferred render has it, the product counts as still coming.
  if (!product)
    return (
      <div className="product-detail product-detail--loading">
        <div className="product-detail__top">
          <Skeleton.Image active className="gallery__skeleton" />
          <Skeleton active paragraph={{ rows: 8 }} className="purchase" />
        </div>
      </div>
    );
  const { category } = product;
  const catLink = (id: number, name: string) =>
    link(`/searchList?${new URLSearchParams({ cateId: String(id), breadTxt: name }).toString()}`);
  return (
    <>
      <div className="product-detail" data-testid="product-detail">
        <Breadcrumb>
          <Link to={link('/home')}>首页</Link>
          {category.lableName}
          {category.levelName}
          <Link to={catLink(category.id, category.catName)}>{category.catName}</Link>
          <span className="product-detail__path-name">{product.name}</span>
        </Breadcrumb>
        <div className="product-detail__top">
          <Gallery images={product.images} name={product.name} />
          <Purchase product={product} actions={actions} />
        </div>
        <SectionTabs
          className="product-detail__tabs"
          items={[
            {
              key: 'detail',
              label: '商品详情',
              children: (
                <>
                  {/* The operator's text uses headings of its own (h3 and below) under this one. */}
                  <h2 className="visually-hidden">商品详情</h2>
                  {product.detail ? (
                    <SafeHtml className="rich-text product-detail__html" html={product.detail} />
                  ) : (
                    <p className="purchase__muted">暂无详情</p>
                  )}
                </>
              ),
            },
            {
              key: 'service',
              label: '售后保障',
              children: (
                <div className="rich-text">
                  <p>
                    本商品由“{product.shop.shopName}”提供，商品来源：{product.source.name}。
                  </p>
                  <p>支持 7 天无理由退货、15 天换货（虚拟商品及定制商品除外），具体以售后政策为准。</p>
                </div>
              ),
            },
          ]}
        />
      </div>
      {below}
    </>
  );
}
