import { App } from 'antd';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ProductFlashSale, ProductGroupBuy } from '../features/activity/index.ts';
import { useAddToCart } from '../features/cart/index.ts';
import { GuessLike, ProductDetailView, type PurchaseActions } from '../features/catalog/index.ts';
import { useSiteLink } from '../site/links.ts';
import { getToken, SESSION_KEYS, session } from '../site/storage.ts';

/** productDetails (spec section 2; query id): the product, its specifications and its detail text. */
export function Component() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const productId = Number.isInteger(id) && id > 0 ? id : undefined;
  const actions = usePurchaseActions();
  return (
    <>
      {productId && <ProductFlashSale productId={productId} />}
      {productId && <ProductGroupBuy productId={productId} />}
      <ProductDetailView
        key={productId}
        productId={productId}
        actions={actions}
        below={productId && <GuessLike productId={productId} />}
      />
    </>
  );
}

/** '加入购物车' and '立即购买' (spec section 8): the cart feature does the work, this page composes. */
function usePurchaseActions(): PurchaseActions {
  const addToCart = useAddToCart();
  const navigate = useNavigate();
  const link = useSiteLink();
  const { message } = App.useApp();
  return useMemo<PurchaseActions>(() => {
    const toLogin = () => {
      session.set(
        SESSION_KEYS.loginSuccessBackPath,
        `${window.location.pathname.replace(/^\/shoppingmall/, '')}${window.location.search}`,
      );
      navigate(link('/login'));
    };
    return {
      onAddToCart: ({ product, specification, num }) => {
        void addToCart({
          productId: product.id,
          specificationId: specification.id,
          specificationValue: specification.specificationValue,
          num,
          snapshot: {
            name: product.name,
            image: product.images[0] ?? '',
            price: specification.price,
            source: product.source,
          },
        }).then((result) => {
          if (result.ok) void message.success('加入购物车成功');
          else if (result.needsLogin) toLogin();
          else void message.error(result.msg);
        });
      },
      onBuyNow: ({ product, specification, num }) => {
        const query = new URLSearchParams({
          productId: String(product.id),
          specificationId: String(specification.id),
          num: String(num),
        });
        const target = link(`/orderSubmission?${query.toString()}`);
        if (!getToken()) {
          session.set(SESSION_KEYS.loginSuccessBackPath, target);
          navigate(link('/login'));
          return;
        }
        navigate(target);
      },
    };
  }, [addToCart, link, message, navigate]);
}
