import type { ProductCard } from '@sitemall/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { useMemberPrice } from '../api.ts';

export const productPath = (id: number) => `/productDetails?id=${id}`;

/** One product in a list: picture, name, price in the site's unit, source, sales. */
export function ProductTile({
  product,
  name,
  eager = false,
}: {
  product: ProductCard;
  name?: ReactNode;
  /** Load the picture at once: the tile is in the first screen (its picture is the page's largest paint). */
  eager?: boolean;
}) {
  const { formatMoney } = useSite();
  const memberPrice = useMemberPrice()(product.price);
  const link = useSiteLink();
  const to = link(productPath(product.id));
  return (
    <div
      className={`product-tile ${product.hasStock ? '' : 'product-tile--soldout'}`}
      data-testid="product-tile"
    >
      <Link to={to} className="product-tile__image" title={product.name}>
        <img
          src={product.image}
          alt={product.name}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={eager ? 'high' : 'auto'}
        />
        {!product.hasStock && <span className="product-tile__badge">暂时无货</span>}
      </Link>
      <div className="product-tile__price">
        <strong>{formatMoney(product.price)}</strong>
        {product.marketPrice > product.price && <s>{formatMoney(product.marketPrice)}</s>}
      </div>
      {memberPrice !== null && memberPrice < product.price && (
        <div className="product-tile__member" data-testid="tile-member-price">
          会员价 {formatMoney(memberPrice)}
        </div>
      )}
      <Link to={to} className="product-tile__name" title={product.name}>
        {name ?? product.name}
      </Link>
      <div className="product-tile__meta">
        {/* A plain label, not antd's Tag: a page shows dozens of tiles, and each antd component
            costs its style hooks on every render. */}
        <span className="product-tile__source" data-testid="source-name">
          {product.source.name}
        </span>
        <span className="product-tile__sales">已兑 {product.sales}</span>
      </div>
    </div>
  );
}

/** Products in rows of `columns` tiles. */
export function ProductGrid({
  products,
  columns = 5,
  renderName,
  firstScreen = false,
}: {
  products: readonly ProductCard[];
  columns?: 4 | 5;
  renderName?: (product: ProductCard) => ReactNode;
  /** The grid starts in the first screen: its first row's pictures load at once, not lazily. */
  firstScreen?: boolean;
}) {
  return (
    <div className={`product-grid product-grid--${columns}`}>
      {products.map((product, index) => (
        <ProductTile
          key={product.id}
          product={product}
          name={renderName?.(product)}
          eager={firstScreen && index < columns}
        />
      ))}
    </div>
  );
}
