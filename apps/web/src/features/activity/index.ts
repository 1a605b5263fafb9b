export { BargainDetail, BargainList } from './Bargain.tsx';
export { MyBenefits } from './Benefits.tsx';
export { FlashSale, ProductFlashSale } from './FlashSale.tsx';
export { GroupBuy, ProductGroupBuy } from './GroupBuy.tsx';
export { GroupTeam } from './GroupTeam.tsx';
export { MyGroupBuys } from './MyGroupBuys.tsx';
export { Turntable } from './Turntable.tsx';
