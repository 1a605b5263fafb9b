import { ShopOutlined } from '@ant-design/icons';
import { Avatar, Skeleton, Spin } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { useShopList } from '../api.ts';
import { CatalogPagination } from './CatalogPagination.tsx';
import { productPath } from './ProductTile.tsx';
import { EmptyState, LoadError } from './states.tsx';

/** /shopStreet: the shops selling on this site, each with its best sellers, 10 a page. */
export function ShopStreet({ pageNum, onPage }: { pageNum: number; onPage: (pageNum: number) => void }) {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const shops = useShopList(siteId ?? '', pageNum);
  if (shops.isPending)
    return (
      <div className="shop-street">
        {[0, 1, 2].map((i) => (
          <div key={i} className="shop-card">
            <Skeleton avatar active paragraph={{ rows: 3 }} />
          </div>
        ))}
      </div>
    );
  if (shops.isError) return <LoadError error={shops.error} onRetry={() => void shops.refetch()} />;
  const { list, total } = shops.data;
  if (list.length === 0) return <EmptyState description="暂无入驻店铺" />;
  return (
    <Spin spinning={shops.isPlaceholderData} delay={200}>
      <div className="shop-street" data-testid="shop-street">
        {list.map((shop) => (
          <article key={shop.id} className="shop-card" data-testid="shop-card">
            <div className="shop-card__info">
              <Avatar
                shape="square"
                size={72}
                src={shop.logo || undefined}
                alt={`${shop.shopName} 店铺标志`}
                icon={<ShopOutlined />}
              />
              <h3 className="shop-card__name">{shop.shopName}</h3>
              <p className="shop-card__intro">{shop.intro}</p>
              <p className="shop-card__count">在售商品 {shop.productCount} 件</p>
            </div>
            <ul className="shop-card__products">
              {shop.products.map((product) => (
                <li key={product.id}>
                  <Link to={link(productPath(product.id))} title={product.name}>
                    <img src={product.image} alt={product.name} loading="lazy" />
                    <span className="shop-card__product-name">{product.name}</span>
                    <strong>{formatMoney(product.price)}</strong>
                  </Link>
                </li>
              ))}
              {shop.products.length === 0 && <li className="shop-card__none">店铺商品正在上架中</li>}
            </ul>
          </article>
        ))}
        <CatalogPagination current={pageNum} total={total} hideOnSinglePage onChange={onPage} />
      </div>
    </Spin>
  );
}
