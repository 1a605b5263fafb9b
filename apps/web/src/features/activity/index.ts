export { BargainDetail, BargainList } from './Bargain.tsx';
export { MyBenefits } from './Benefits.tsx';
export { FlashSale } from './FlashSale.tsx';
export { GroupBuy } from './GroupBuy.tsx';
export { GroupTeam } from './GroupTeam.tsx';
export { MyGroupBuys } from './MyGroupBuys.tsx';
export { ProductFlashSale, ProductGroupBuy } from './ProductBanners.tsx';
export { Turntable } from './Turntable.tsx';
