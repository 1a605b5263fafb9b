export { mergeGuestCart, useAddToCart, useCartCount } from './api.ts';
export { CartPage } from './components/CartPage.tsx';
