import './catalog.css';

export { useHomeReads } from './api.ts';
/** The catalogue feature: what the routes compose (spec sections 1, 2 and 7). */
export { ClientTipsNotice } from './components/ClientTipsNotice.tsx';
export { CustomerService } from './components/CustomerService.tsx';
export { GuessLike, HomeFloors } from './components/HomeFloors.tsx';
export { MerchantSettlement } from './components/MerchantSettlement.tsx';
export {
  ProductDetailView,
  type PurchaseActions,
  type PurchaseChoice,
} from './components/ProductDetailView.tsx';
export { type CategoryOption, SearchResults } from './components/SearchResults.tsx';
export { ShopStreet } from './components/ShopStreet.tsx';
export { SpecialProducts } from './components/SpecialProducts.tsx';
export { parseSearchParams, searchParamsOf } from './lib/searchQuery.ts';
