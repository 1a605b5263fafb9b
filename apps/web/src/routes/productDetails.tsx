import { useSearchParams } from 'react-router';
import { GuessLike, ProductDetailView } from '../features/catalog/index.ts';

/** productDetails (spec section 2; query id): the product, its specifications and its detail text. */
export function Component() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const productId = Number.isInteger(id) && id > 0 ? id : undefined;
  return (
    <>
      <ProductDetailView key={productId} productId={productId} />
      {productId && <GuessLike productId={productId} />}
    </>
  );
}
