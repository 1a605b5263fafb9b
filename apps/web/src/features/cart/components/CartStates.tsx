import { ShoppingCartOutlined } from '@ant-design/icons';
import { Button, Empty, Result, Skeleton } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';

/** The cart page when there are no lines to show: login prompt, loading, load error, empty. */

export function CartLoginPrompt({ onLogin }: { onLogin: () => void }) {
  return (
    <section className="page-card cart" data-testid="cart-page">
      <Result
        icon={<ShoppingCartOutlined />}
        title="登录后查看购物车"
        extra={
          <Button type="primary" onClick={onLogin}>
            去登录
          </Button>
        }
      />
    </section>
  );
}

export function CartLoading() {
  return (
    <section className="page-card cart">
      <Skeleton active paragraph={{ rows: 6 }} />
    </section>
  );
}

export function CartLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <section className="page-card cart">
      <Result
        status="warning"
        title="购物车加载失败"
        subTitle={message}
        extra={<Button onClick={onRetry}>重试</Button>}
      />
    </section>
  );
}

export function CartEmpty() {
  const link = useSiteLink();
  return (
    <section className="page-card cart" data-testid="cart-page">
      <h2 className="page-card__title">我的购物车</h2>
      <Empty className="cart__empty" description="购物车空空如也" data-testid="cart-empty">
        <Link to={link('/home')}>
          <Button type="primary">去逛逛</Button>
        </Link>
      </Empty>
    </section>
  );
}
