import { SearchOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { MAX_SEARCH_LENGTH } from '@sitemall/contract';
import { Badge, Button } from 'antd';
// The field alone: antd's Input namespace brings TextArea, Password, Search and OTP with it.
import Input from 'antd/es/input/Input';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCartCount } from '../features/cart/index.ts';
import { useSiteLink } from '../site/links.ts';
import { useSite } from '../site/SiteProvider.tsx';

/** Logo and site name, the search box and the cart link (spec section 2, "Header"). */
export function MainBar() {
  const { site, advancedConfig, templates } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const cartCount = useCartCount();
  const [keyword, setKeyword] = useState(params.get('itemName') ?? '');
  useEffect(() => setKeyword((params.get('itemName') ?? '').slice(0, MAX_SEARCH_LENGTH)), [params]);

  const search = () => {
    const itemName = keyword.trim();
    const query = new URLSearchParams({
      itemName,
      breadTxt: itemName || '全部商品',
      time: String(Date.now()),
    });
    navigate(link(`/searchList?${query.toString()}`));
  };

  return (
    <div className="mainbar">
      <div className="container mainbar__inner">
        <Link to={link('/home')} className="mainbar__brand">
          {advancedConfig?.logo && <img src={advancedConfig.logo} alt="" className="mainbar__logo" />}
          <span className="mainbar__titles">
            <span className="mainbar__name">{site?.siteName}</span>
            {advancedConfig?.slogan && <span className="mainbar__slogan">{advancedConfig.slogan}</span>}
          </span>
        </Link>
        <form
          className="mainbar__search"
          onSubmit={(event) => {
            event.preventDefault();
            search();
          }}
        >
          <Input
            size="large"
            value={keyword}
            onChange={(event) => setKeyword(event.target.value)}
            placeholder={templates.head?.note || '搜索商品'}
            maxLength={MAX_SEARCH_LENGTH}
            allowClear
            aria-label="搜索商品"
          />
          <Button size="large" type="primary" htmlType="submit" icon={<SearchOutlined />}>
            搜索
          </Button>
        </form>
        <Link to={link('/shoppingCart')} className="mainbar__cart" data-testid="cart-link">
          <Badge
            count={cartCount}
            showZero
            overflowCount={99}
            data-testid="cart-count"
            size="small"
            offset={[4, -2]}
          >
            <ShoppingCartOutlined className="mainbar__cart-icon" />
          </Badge>
          <span>我的购物车</span>
        </Link>
      </div>
    </div>
  );
}
