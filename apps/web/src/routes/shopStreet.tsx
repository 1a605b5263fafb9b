import { useNavigate, useSearchParams } from 'react-router';
import { ShopStreet } from '../features/catalog/index.ts';
import { useSiteLink } from '../site/links.ts';

/** shopStreet (spec section 2): the shops of the site with their products, 10 a page. */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const link = useSiteLink();
  const page = Number(params.get('pageNum'));
  return (
    <ShopStreet
      pageNum={Number.isInteger(page) && page > 0 ? page : 1}
      onPage={(pageNum) => navigate(link(`/shopStreet?pageNum=${pageNum}`))}
    />
  );
}
