import { useNavigate, useSearchParams } from 'react-router';
import { SpecialProducts } from '../features/catalog/index.ts';
import { useSiteLink } from '../site/links.ts';

const positive = (raw: string | null) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/** specialList (spec section 2; query advertId, breadTxt): the product list of a type-1 advert. */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const link = useSiteLink();
  const advertId = positive(params.get('advertId'));
  const pageNum = positive(params.get('pageNum')) ?? 1;
  return (
    <SpecialProducts
      advertId={advertId}
      pageNum={pageNum}
      fallbackTitle={params.get('breadTxt') || '专题活动'}
      onPage={(page) => {
        const next = new URLSearchParams(params);
        next.set('pageNum', String(page));
        navigate(link(`/specialList?${next.toString()}`));
      }}
    />
  );
}
