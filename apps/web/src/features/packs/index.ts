export { BuyPacks } from './BuyPacks.tsx';
export { MyCards } from './MyCards.tsx';
